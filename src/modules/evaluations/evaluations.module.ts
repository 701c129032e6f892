import type { JobHandlers } from '../../jobs/job-handler.js';
import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { LlmConfigurationsService } from '../llm/llm-configurations.service.js';
import type { AskService } from '../runtime/ask.service.js';
import { datasetsRoutes } from './datasets.routes.js';
import { DatasetsService } from './datasets.service.js';
import { EvaluationProgress } from './evaluation-progress.js';
import { EvaluationRunner } from './evaluation-runner.js';
import { evaluationsRoutes } from './evaluations.routes.js';
import { EvaluationsService } from './evaluations.service.js';
import { metricsRoutes } from './metrics.routes.js';
import { MetricsService } from './metrics.service.js';

export const evaluationsModule: AppModule = { name: 'evaluations', routes: [datasetsRoutes, metricsRoutes, evaluationsRoutes] };

/** Datasets, metrics and evaluations, and the runner that answers and scores them: the handler of 'evaluation.run'. */
export function buildEvaluationsServices({ store, embedder, log, wakeWorker }: SharedServices, { asks, llm }: { asks: AskService; llm: LlmConfigurationsService }) {
  const datasets = new DatasetsService(store);
  const evaluationProgress = new EvaluationProgress();
  const runner = new EvaluationRunner({ store, asks, llm, embedder, progress: evaluationProgress, log });
  const hasEmbedder = embedder !== undefined;
  return {
    services: {
      datasets,
      metrics: new MetricsService(store, hasEmbedder),
      evaluations: new EvaluationsService({ store, datasets, runner, progress: evaluationProgress, hasEmbedder, wake: wakeWorker }),
      evaluationProgress,
    },
    jobHandlers: { 'evaluation.run': runner } satisfies Partial<JobHandlers>,
  };
}

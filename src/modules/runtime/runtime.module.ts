import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { GuardrailsService } from '../guardrails/guardrails.service.js';
import type { LlmConfigurationsService } from '../llm/llm-configurations.service.js';
import type { SearchService } from '../retrieval/search.service.js';
import type { ToolsService } from '../tools/tools.service.js';
import { askRoutes } from './ask.routes.js';
import { AskService } from './ask.service.js';

export const runtimeModule: AppModule = { name: 'runtime', routes: [askRoutes] };

interface AskingDeps {
  search: SearchService;
  llm: LlmConfigurationsService;
  tools: ToolsService;
  guardrails: GuardrailsService;
}

/** The one asking pipeline, which every door (v2, stream, legacy, OpenAI, evaluations) asks through. */
export function buildRuntimeServices({ store, config, log }: SharedServices, { search, llm, tools, guardrails }: AskingDeps) {
  const asks = new AskService(store, search, llm, {
    llmTimeoutMs: config.limits.llmTimeoutMs,
    log,
    limits: {
      toolTimeoutMs: config.limits.toolTimeoutMs,
      toolResponseBytes: config.limits.toolResponseBytes,
      toolOutputCharacters: config.limits.toolOutputCharacters,
      toolSteps: config.limits.toolSteps,
      budgetUsd: config.limits.answerBudgetUsd,
    },
    tools,
    guardrails,
  });
  return { asks };
}

// Metric definitions: the built-in ones (read-only, the same for every organization) and an
// organization's own — a kind with its parameters, a threshold, a rubric and a judge configuration.
// Evaluations copy the definitions they use when they are made, so changing or deleting a metric
// never changes an evaluation already made.
import { now } from '../../clock.js';
import { Forbidden, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { MetricKind } from '../../evaluation/index.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import { evaluationPolicy } from './evaluation.policy.js';
import { presentMetric } from './evaluation.presenters.js';
import { checkMetricSettings } from './metric-settings.js';
import type { MetricFilter, MetricRecord } from './metrics.repo.js';
import type { CreateMetricInput, MetricView, UpdateMetricInput } from './metrics.schemas.js';

export class MetricsService {
  constructor(
    private readonly store: UnitOfWork,
    /** Whether the server has an embedding model (semantic similarity needs one). */
    private readonly hasEmbedder: boolean,
  ) {}

  async requireMetric(actor: Actor, metricId: number): Promise<MetricRecord> {
    const metric = await this.store.repos.evaluationMetrics.find(actor.organizationId, metricId);
    if (!metric) throw new NotFound('metric', metricId);
    return metric;
  }

  private async requireChangeable(actor: Actor, metricId: number, doing: string): Promise<MetricRecord> {
    const metric = await this.requireMetric(actor, metricId);
    if (metric.builtin === 1) throw new Forbidden(`Metric ${metricId} is built in: built-in metrics cannot be changed; define a metric of your own`);
    authorize(evaluationPolicy.mayChange(actor, metric), `Only owners, admins and the metric’s creator may ${doing}`);
    return metric;
  }

  /** A judge configuration named must be one of the organization's. */
  private async requireJudge(actor: Actor, configurationId: number | null | undefined): Promise<void> {
    if (configurationId == null) return;
    if (!(await this.store.repos.llmConfigurations.find(actor.organizationId, configurationId))) throw new NotFound('llm_configuration', configurationId);
  }

  async list(actor: Actor, filter: MetricFilter, window: ListWindow): Promise<ListSlice<MetricView>> {
    const { items, total } = await this.store.repos.evaluationMetrics.list(actor.organizationId, filter, window);
    return { items: items.map((row) => presentMetric(row, this.hasEmbedder)), total };
  }

  async get(actor: Actor, metricId: number): Promise<MetricView> {
    return presentMetric(await this.requireMetric(actor, metricId), this.hasEmbedder);
  }

  async create(actor: Actor, input: CreateMetricInput): Promise<MetricView> {
    authorize(evaluationPolicy.mayCreate(actor), 'Viewers may not define metrics');
    const settings = { parameters: input.parameters ?? {}, rubric: input.rubric ?? null, llm_configuration_id: input.llm_configuration_id ?? null };
    await checkMetricSettings(input.kind, settings);
    await this.requireJudge(actor, settings.llm_configuration_id);
    const at = now();
    const id = await this.store.repos.evaluationMetrics.insert({
      organization_id: actor.organizationId,
      kind: input.kind,
      name: input.name.trim(),
      description: input.description ?? '',
      parameters: JSON.stringify(settings.parameters),
      threshold: input.threshold ?? null,
      rubric: settings.rubric,
      llm_configuration_id: settings.llm_configuration_id,
      created_on: at,
      created_by: actor.userId,
      modified_on: at,
      modified_by: actor.userId,
    });
    return this.get(actor, id);
  }

  async update(actor: Actor, metricId: number, input: UpdateMetricInput): Promise<MetricView> {
    const current = await this.requireChangeable(actor, metricId, 'change a metric');
    const fields = sentFields(input, ['name', 'description', 'threshold', 'rubric', 'llm_configuration_id'] as const);
    const settings = {
      parameters: input.parameters ?? (JSON.parse(current.parameters) as Record<string, unknown>),
      rubric: input.rubric === undefined ? current.rubric : input.rubric,
      llm_configuration_id: input.llm_configuration_id === undefined ? current.llm_configuration_id : input.llm_configuration_id,
    };
    await checkMetricSettings(current.kind as MetricKind, settings);
    await this.requireJudge(actor, input.llm_configuration_id);
    await this.store.repos.evaluationMetrics.update(actor.organizationId, metricId, {
      ...fields,
      ...(fields.name === undefined ? {} : { name: fields.name.trim() }),
      ...(input.parameters === undefined ? {} : { parameters: JSON.stringify(input.parameters) }),
      modified_on: now(),
      modified_by: actor.userId,
    });
    return this.get(actor, metricId);
  }

  async remove(actor: Actor, metricId: number): Promise<{ id: number }> {
    await this.requireChangeable(actor, metricId, 'delete a metric');
    await this.store.repos.evaluationMetrics.delete(actor.organizationId, metricId);
    return { id: metricId };
  }
}

// Evaluations of an agent's checkpoint over a dataset with chosen metrics: made (checked, the
// dataset's queries and the metrics' definitions copied, a job enqueued — all in one transaction),
// read with their progress and per-metric summary, renamed and tagged, cancelled, deleted; their
// per-query and per-metric results; the tags in use; and comparisons of several. The runner
// (evaluation-runner.ts) does the asking and scoring.
import { now } from '../../clock.js';
import { BadRequest, Conflict, NotFound, type ErrorDetail } from '../../errors.js';
import { KINDS, type MetricDefinition } from '../../evaluation/index.js';
import type { ListSlice, ListWindow, PageRequest } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import { requireVisibleAgent } from '../agents/agent-access.js';
import { compareMetrics, pairQueries } from './comparison.js';
import type { DatasetsService } from './datasets.service.js';
import type { EvaluationRunner } from './evaluation-runner.js';
import type { EvaluationProgress } from './evaluation-progress.js';
import { evaluationPolicy } from './evaluation.policy.js';
import { definitionOf, metricsOf, passedOf, presentEvaluation, presentResult, summaryOf } from './evaluation.presenters.js';
import type { EvaluationFilter, EvaluationRecord } from './evaluations.repo.js';
import type {
  ComparisonView,
  CreateEvaluationInput,
  EvaluationView,
  MetricResultView,
  MetricSummaryView,
  QueryResultView,
  UpdateEvaluationInput,
} from './evaluations.schemas.js';

const DEFAULT_CONCURRENCY = 4;

export interface EvaluationsDeps {
  store: UnitOfWork;
  datasets: DatasetsService;
  runner: EvaluationRunner;
  progress: EvaluationProgress;
  hasEmbedder: boolean;
  /** Tells the in-process worker that a job is waiting. */
  wake: () => void;
}

export class EvaluationsService {
  private readonly store: UnitOfWork;

  constructor(private readonly deps: EvaluationsDeps) {
    this.store = deps.store;
  }

  async requireEvaluation(actor: Actor, evaluationId: number): Promise<EvaluationRecord> {
    const evaluation = await this.store.repos.evaluations.find(actor.organizationId, evaluationId);
    if (!evaluation) throw new NotFound('evaluation', evaluationId);
    return evaluation;
  }

  private async requireChangeable(actor: Actor, evaluationId: number, doing: string): Promise<EvaluationRecord> {
    const evaluation = await this.requireEvaluation(actor, evaluationId);
    authorize(evaluationPolicy.mayChange(actor, evaluation), `Only owners, admins and the evaluation’s creator may ${doing}`);
    return evaluation;
  }

  async create(actor: Actor, input: CreateEvaluationInput): Promise<EvaluationView> {
    authorize(evaluationPolicy.mayCreate(actor), 'Viewers may not run evaluations');
    const repos = this.store.repos;
    const agent = await requireVisibleAgent(repos, actor, input.agent_id);
    const historyId = input.history_id ?? (await repos.ask.latestHistoryId(actor.organizationId, agent.id));
    if (historyId === null || !(await repos.history.find(actor.organizationId, agent.id, historyId))) throw new NotFound('history', input.history_id);
    const dataset = await this.deps.datasets.requireDataset(actor, input.dataset_id);
    const metrics = await this.metricsFor(actor, input);
    if (agent.status === 'inactive') throw new Conflict(`Agent ${agent.id} is inactive: activate it to evaluate it`);
    const queries = await repos.datasets.allQueries(actor.organizationId, dataset.id);
    if (queries.length === 0) throw new BadRequest(`Dataset ${dataset.id} has no queries`, [{ pointer: '/body/dataset_id', message: 'names a dataset without queries' }]);
    const at = now();
    const id = await this.store.transaction(async (trx) => {
      const evaluationId = await trx.evaluations.insert({
        organization_id: actor.organizationId,
        name: input.name?.trim() ?? `${agent.name} on ${dataset.name}`,
        agent_id: agent.id,
        history_id: historyId,
        dataset_id: dataset.id,
        judge_llm_configuration_id: input.judge_llm_configuration_id ?? null,
        metrics: JSON.stringify(metrics),
        status: 'queued',
        concurrency: input.concurrency ?? DEFAULT_CONCURRENCY,
        cost_budget_usd: input.cost_budget_usd ?? null,
        total_queries: queries.length,
        error: null,
        started_on: null,
        finished_on: null,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      await trx.evaluationResults.insertPending(
        actor.organizationId,
        evaluationId,
        queries.map((query) => ({ query_id: query.id, question: query.question, expected_answer: query.expected_answer, expected_sources: query.expected_sources })),
      );
      await trx.evaluations.setTags(actor.organizationId, evaluationId, [...new Set((input.tags ?? []).map((tag) => tag.trim()))]);
      await trx.jobs.enqueue('evaluation.run', { organizationId: actor.organizationId, evaluationId }, at);
      return evaluationId;
    });
    this.deps.wake();
    return this.get(actor, id);
  }

  /**
   * The metrics asked for, in order, as the evaluation will hold them: judge metrics with the judge
   * that will answer (their own configuration, else the evaluation's, else the organization's judge
   * deployment, else its default).
   */
  private async metricsFor(actor: Actor, input: CreateEvaluationInput): Promise<MetricDefinition[]> {
    const repos = this.store.repos;
    const rows = new Map((await repos.evaluationMetrics.findMany(actor.organizationId, input.metric_ids)).map((row) => [row.id, row]));
    const missing = input.metric_ids.find((id) => !rows.has(id));
    if (missing !== undefined) throw new NotFound('metric', missing);
    if (input.judge_llm_configuration_id != null && !(await repos.llmConfigurations.find(actor.organizationId, input.judge_llm_configuration_id))) {
      throw new NotFound('llm_configuration', input.judge_llm_configuration_id);
    }
    let fallbackJudge: Promise<number | null> | undefined;
    const judgeOfOrganization = async () =>
      input.judge_llm_configuration_id ??
      (await repos.organizations.findModelDeployment(actor.organizationId))?.judge ??
      (await repos.llmConfigurations.findDefault(actor.organizationId))?.id ??
      null;
    const problems: ErrorDetail[] = [];
    const definitions: MetricDefinition[] = [];
    for (const [index, id] of input.metric_ids.entries()) {
      const definition = definitionOf(rows.get(id)!);
      const needs = KINDS[definition.kind].needs;
      if (needs === 'embedder' && !this.deps.hasEmbedder) problems.push({ pointer: `/body/metric_ids/${index}`, message: `metric ${id} (${definition.name}) needs an embedding model, and none is configured` });
      if (needs === 'judge' && definition.llm_configuration_id === null) {
        definition.llm_configuration_id = await (fallbackJudge ??= judgeOfOrganization());
        if (definition.llm_configuration_id === null) {
          problems.push({ pointer: `/body/metric_ids/${index}`, message: `metric ${id} (${definition.name}) needs a judge model: give judge_llm_configuration_id, or add an LLM configuration` });
        }
      }
      definitions.push(definition);
    }
    if (problems.length > 0) throw new BadRequest(`The metrics cannot be scored: ${problems[0]!.message}`, problems);
    return definitions;
  }

  async list(actor: Actor, filter: EvaluationFilter, window: ListWindow): Promise<ListSlice<EvaluationView>> {
    const { items, total } = await this.store.repos.evaluations.list(actor.organizationId, filter, window);
    const counts = await this.store.repos.evaluations.resultCounts(items.map((item) => item.id));
    return { items: items.map((item) => presentEvaluation(item, counts.get(item.id)!)), total };
  }

  async get(actor: Actor, evaluationId: number): Promise<EvaluationView> {
    const evaluation = await this.requireEvaluation(actor, evaluationId);
    const counts = (await this.store.repos.evaluations.resultCounts([evaluationId])).get(evaluationId)!;
    return presentEvaluation(evaluation, counts, await this.summaryOf(evaluation));
  }

  private async summaryOf(evaluation: EvaluationRecord): Promise<MetricSummaryView[]> {
    const sums = await this.store.repos.evaluationResults.metricSums(evaluation.id);
    return metricsOf(evaluation).map((metric) => summaryOf(metric, sums.get(metric.id)));
  }

  async update(actor: Actor, evaluationId: number, input: UpdateEvaluationInput): Promise<EvaluationView> {
    await this.requireChangeable(actor, evaluationId, 'change an evaluation');
    await this.store.transaction(async (repos) => {
      await repos.evaluations.update(actor.organizationId, evaluationId, { ...(input.name === undefined ? {} : { name: input.name.trim() }), modified_on: now(), modified_by: actor.userId });
      if (input.tags !== undefined) await repos.evaluations.setTags(actor.organizationId, evaluationId, [...new Set(input.tags.map((tag) => tag.trim()))]);
    });
    return this.get(actor, evaluationId);
  }

  /** Stops it where it runs; its results, its job and its tags go with it. */
  async remove(actor: Actor, evaluationId: number): Promise<{ id: number }> {
    await this.requireChangeable(actor, evaluationId, 'delete an evaluation');
    await this.store.repos.evaluations.delete(actor.organizationId, evaluationId);
    this.deps.runner.stopLocally(evaluationId);
    return { id: evaluationId };
  }

  /** No query starts after this; queries being answered in this process stop (in another, they finish). */
  async cancel(actor: Actor, evaluationId: number): Promise<EvaluationView> {
    const evaluation = await this.requireChangeable(actor, evaluationId, 'cancel an evaluation');
    const at = now();
    const moved = await this.store.repos.evaluations.moveStatus(actor.organizationId, evaluationId, ['queued', 'running'], {
      status: 'cancelled',
      finished_on: at,
      modified_on: at,
      modified_by: actor.userId,
    });
    if (!moved) throw new Conflict(`Evaluation ${evaluationId} has ended (${(await this.requireEvaluation(actor, evaluationId)).status}): there is nothing to cancel`);
    this.deps.runner.stopLocally(evaluationId);
    const view = await this.get(actor, evaluationId);
    this.deps.progress.tell({ organization_id: evaluation.organization_id, evaluation_id: evaluationId, status: 'cancelled', answered: view.progress.answered, total: view.progress.total });
    return view;
  }

  private metricNames(evaluation: EvaluationRecord): Map<number, string> {
    return new Map(metricsOf(evaluation).map((metric) => [metric.id, metric.name]));
  }

  async listResults(actor: Actor, evaluationId: number, filter: { status?: QueryResultView['status'] | undefined }, window: ListWindow): Promise<ListSlice<QueryResultView>> {
    const evaluation = await this.requireEvaluation(actor, evaluationId);
    const { items, total } = await this.store.repos.evaluationResults.list(actor.organizationId, evaluationId, filter, window);
    const names = this.metricNames(evaluation);
    return { items: items.map((item) => presentResult(item, names)), total };
  }

  async getResult(actor: Actor, evaluationId: number, resultId: number): Promise<QueryResultView> {
    const evaluation = await this.requireEvaluation(actor, evaluationId);
    const result = await this.store.repos.evaluationResults.find(actor.organizationId, evaluationId, resultId);
    if (!result) throw new NotFound('query_result', resultId);
    return presentResult(result, this.metricNames(evaluation));
  }

  async listMetricResults(
    actor: Actor,
    evaluationId: number,
    filter: { metricId?: number | undefined; status?: MetricResultView['status'] | undefined },
    window: ListWindow,
  ): Promise<ListSlice<MetricResultView> & { summary: MetricSummaryView[] }> {
    const evaluation = await this.requireEvaluation(actor, evaluationId);
    const names = this.metricNames(evaluation);
    if (filter.metricId !== undefined && !names.has(filter.metricId)) {
      throw new BadRequest(`Evaluation ${evaluationId} has no metric ${filter.metricId}`, [{ pointer: '/query/metric_id', message: 'is not a metric of the evaluation' }]);
    }
    const { items, total } = await this.store.repos.evaluationResults.listScores(actor.organizationId, evaluationId, filter, window);
    const summary = (await this.summaryOf(evaluation)).filter((metric) => filter.metricId === undefined || metric.metric_id === filter.metricId);
    return {
      items: items.map((row) => ({
        query_result_id: row.result_id,
        query_id: row.query_id,
        position: row.position,
        question: row.question,
        metric_id: row.metric_id,
        name: names.get(row.metric_id)!,
        status: row.status,
        score: row.score,
        passed: passedOf(row.passed),
        reason: row.reason,
      })),
      total,
      summary,
    };
  }

  tagsInUse(actor: Actor) {
    return this.store.repos.evaluations.tagsInUse(actor.organizationId);
  }

  async compare(actor: Actor, evaluationIds: number[], page: PageRequest): Promise<ComparisonView> {
    if (new Set(evaluationIds).size !== evaluationIds.length) throw new BadRequest('An evaluation is named twice in ids', [{ pointer: '/query/ids', message: 'names an evaluation twice' }]);
    const evaluations = await this.store.repos.evaluations.findMany(actor.organizationId, evaluationIds);
    const missing = evaluationIds.find((id) => !evaluations.some((evaluation) => evaluation.id === id));
    if (missing !== undefined) throw new NotFound('evaluation', missing);
    const summaries = await Promise.all(evaluations.map(async (evaluation) => new Map((await this.summaryOf(evaluation)).map((summary) => [summary.metric_id, summary]))));
    const metricNames = new Map(evaluations.flatMap((evaluation) => [...this.metricNames(evaluation)]));
    const results = await this.store.repos.evaluationResults.allOf(actor.organizationId, evaluationIds);
    // The baseline's queries in its order first: results come by evaluation, in the order asked.
    results.sort((a, b) => evaluationIds.indexOf(a.evaluation_id) - evaluationIds.indexOf(b.evaluation_id) || a.position - b.position);
    return {
      evaluations: evaluations.map((evaluation) => ({
        id: evaluation.id,
        name: evaluation.name,
        agent_id: evaluation.agent_id,
        history_id: evaluation.history_id,
        dataset_id: evaluation.dataset_id,
        status: evaluation.status,
      })),
      metrics: compareMetrics(evaluations.map(metricsOf), summaries),
      queries: pairQueries(evaluationIds, results, metricNames, page),
    };
  }
}

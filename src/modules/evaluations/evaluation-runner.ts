// Runs evaluations as durable jobs ('evaluation.run', one per evaluation, leased by any worker).
// A run answers the evaluation's pending queries, `concurrency` at a time, and writes each query's
// result, scores, usage events and cost as soon as it has them (those that finish together in one
// transaction: evaluation-writer.ts): a server that stops mid-run (or dies) leaves the answered
// queries answered, and the next run — after a restart, or on another worker — goes on with the
// pending ones. Before each query it goes by the evaluation's status (cancelled by anyone, in any
// process) and what it has spent (its budget) as the last write read them.
import type { FastifyBaseLogger } from 'fastify';
import { now } from '../../clock.js';
import type { EvaluationStatus } from '../../db/schema.js';
import type { CompiledPatterns } from '../../evaluation/index.js';
import type { CompleteJob, JobHandler } from '../../jobs/job-handler.js';
import type { Job } from '../../jobs/job-types.js';
import type { Embedder } from '../../providers/embeddings/embedder.js';
import type { UnitOfWork } from '../../repositories.js';
import { actorOfUser, type Actor } from '../auth/actor.js';
import { configurationOf } from '../agents/agent-config.js';
import type { LlmConfigurationsService, ResolvedModel } from '../llm/llm-configurations.service.js';
import type { AskService } from '../runtime/ask.service.js';
import { metricsOf } from './evaluation.presenters.js';
import type { EvaluationProgress } from './evaluation-progress.js';
import { EvaluationWriter } from './evaluation-writer.js';
import type { EvaluationRecord, RunState } from './evaluations.repo.js';
import { evaluateQuery, type RunContext } from './query-evaluation.js';

/** States a run does not go on from. */
export const ENDED: ReadonlySet<EvaluationStatus> = new Set(['completed', 'cancelled', 'budget_exhausted', 'failed']);

/** Cancelled (or deleted) by anyone, or the budget spent: no further query starts. */
function reasonToStop(evaluation: EvaluationRecord, state: RunState | undefined): 'cancelled' | 'budget' | undefined {
  if (!state || state.status !== 'running') return 'cancelled';
  if (evaluation.cost_budget_usd !== null && state.spent_nano_usd >= Math.round(evaluation.cost_budget_usd * 1e9)) return 'budget';
  return undefined;
}

/** Runs `work` over the items, at most `limit` at a time, in order of start. */
async function concurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export interface RunnerDeps {
  store: UnitOfWork;
  asks: AskService;
  llm: Pick<LlmConfigurationsService, 'resolveForAnswering'>;
  embedder: Embedder | undefined;
  progress: EvaluationProgress;
  log: FastifyBaseLogger;
}

export class EvaluationRunner implements JobHandler<'evaluation.run'> {
  /** Runs of this process, to stop at once when cancelled here. */
  private readonly running = new Map<number, AbortController>();

  constructor(private readonly deps: RunnerDeps) {}

  /** Stops this process's run of the evaluation (its status is set by whoever cancels). */
  stopLocally(evaluationId: number): void {
    this.running.get(evaluationId)?.abort();
  }

  async run(job: Job<'evaluation.run'>, complete: CompleteJob, stopping: AbortSignal): Promise<void> {
    const { organizationId, evaluationId } = job.payload;
    const repos = this.deps.store.repos;
    const evaluation = await repos.evaluations.find(organizationId, evaluationId);
    if (!evaluation || ENDED.has(evaluation.status)) return;
    const actor = await this.actorOf(evaluation);
    if (!actor) return this.end(evaluation, 'failed', 'The user who started the evaluation is no longer active', complete);
    const record = await repos.history.find(organizationId, evaluation.agent_id, evaluation.history_id);
    if (!record) return this.end(evaluation, 'failed', `History record ${evaluation.history_id} of agent ${evaluation.agent_id} no longer exists`, complete);
    if (evaluation.status === 'queued') await repos.evaluations.moveStatus(organizationId, evaluationId, ['queued'], { status: 'running', started_on: now() });

    const local = new AbortController();
    this.running.set(evaluationId, local);
    const signal = AbortSignal.any([stopping, local.signal]);
    const owner = (await repos.usageEvents.agentOwner(organizationId, evaluation.agent_id)) ?? { project_id: null, team_id: null };
    const context = this.contextOf(actor, evaluation, owner, { historyId: record.id, configuration: configurationOf(record.snapshot) }, signal);
    const pending = await repos.evaluationResults.pending(evaluationId);
    let answered = evaluation.total_queries - pending.length;
    let stop: 'cancelled' | 'budget' | undefined;
    // Read once here, then as each write leaves it: a cancel from another process is seen after the next write.
    let state = await repos.evaluations.runState(organizationId, evaluationId);
    const writer = new EvaluationWriter(this.deps.store, evaluationId, (after) => (state = after));
    try {
      await concurrently(pending, evaluation.concurrency, async (query) => {
        if (stop !== undefined || signal.aborted) return;
        stop = reasonToStop(evaluation, state);
        // A cancelled run stops its queries in flight; a spent budget lets them finish.
        if (stop === 'cancelled') local.abort();
        if (stop !== undefined) return;
        const outcome = await evaluateQuery(this.deps, context, query);
        if (outcome === undefined || signal.aborted) return;
        if (await writer.save(query, outcome)) answered++;
        this.deps.progress.tell({ organization_id: organizationId, evaluation_id: evaluationId, status: 'running', answered, total: evaluation.total_queries });
      });
    } finally {
      this.running.delete(evaluationId);
    }
    // Put back for the next worker: what was answered stays answered.
    if (stopping.aborted) throw new Error('The worker stopped during the evaluation');
    if (stop === 'cancelled') return;
    if (stop === 'budget') {
      const unasked = evaluation.total_queries - answered;
      return this.end(evaluation, 'budget_exhausted', `The cost budget of USD ${evaluation.cost_budget_usd} was spent: ${unasked} ${unasked === 1 ? 'query was' : 'queries were'} not asked`, complete);
    }
    return this.end(evaluation, 'completed', null, complete);
  }

  async onFailed(job: Job<'evaluation.run'>, reason: string): Promise<void> {
    const { organizationId, evaluationId } = job.payload;
    await this.deps.store.repos.evaluations.moveStatus(organizationId, evaluationId, ['queued', 'running'], { status: 'failed', error: reason, finished_on: now() });
    this.deps.progress.tell({ organization_id: organizationId, evaluation_id: evaluationId, status: 'failed', answered: 0, total: 0 });
  }

  /** The person the evaluation answers as: its creator, with the role and corpus permissions they have now. */
  private actorOf(evaluation: EvaluationRecord): Promise<Actor | undefined> {
    return actorOfUser(this.deps.store.repos.users, evaluation.organization_id, evaluation.created_by);
  }

  private contextOf(actor: Actor, evaluation: EvaluationRecord, owner: RunContext['owner'], checkpoint: RunContext['checkpoint'], signal: AbortSignal): RunContext {
    const judges = new Map<number, Promise<ResolvedModel | undefined>>();
    const patterns: CompiledPatterns = new Map();
    return {
      actor,
      evaluationId: evaluation.id,
      agentId: evaluation.agent_id,
      owner,
      checkpoint,
      metrics: metricsOf(evaluation),
      judgeModel: (configurationId) => {
        if (!judges.has(configurationId)) judges.set(configurationId, this.deps.llm.resolveForAnswering(evaluation.organization_id, configurationId));
        return judges.get(configurationId)!;
      },
      embedder: this.deps.embedder,
      patterns,
      signal,
    };
  }


  /** Ends the run in its final state and the job with it, in one transaction. */
  private async end(evaluation: EvaluationRecord, status: EvaluationStatus, error: string | null, complete: CompleteJob): Promise<void> {
    await this.deps.store.transaction(async (repos) => {
      await repos.evaluations.moveStatus(evaluation.organization_id, evaluation.id, ['queued', 'running'], { status, error, finished_on: now() });
      await complete(repos);
    });
    const counts = (await this.deps.store.repos.evaluations.resultCounts([evaluation.id])).get(evaluation.id)!;
    this.deps.progress.tell({
      organization_id: evaluation.organization_id,
      evaluation_id: evaluation.id,
      status,
      answered: counts.completed + counts.blocked + counts.failed,
      total: evaluation.total_queries,
    });
  }
}

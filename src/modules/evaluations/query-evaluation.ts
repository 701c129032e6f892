// One query of an evaluation: asked through the runtime's one ask path (AskService: the agent's
// checkpoint laid over it, nothing recorded in threads), then scored by each metric — without a
// model, by a judge model, or by the embedder — and turned into what the runner writes: the
// result's row, its scores, the usage events of every model call, and what it all cost.
import type { FastifyBaseLogger } from 'fastify';
import { now } from '../../clock.js';
import { AppError } from '../../errors.js';
import { type AnswerUnderTest, type CompiledPatterns, cosineSimilarity, DEFAULT_CORRECTNESS_RUBRIC, type ExpectedSource, failed, KINDS, type MetricDefinition, type MetricOutcome, passes, precondition, type QueryUnderTest, runJudge, scored, scoreWithoutModel, undetermined } from '../../evaluation/index.js';
import type { Embedder } from '../../providers/embeddings/embedder.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { toNanoUsd, type UsageEvent } from '../analytics/usage-events.js';
import type { ResolvedModel } from '../llm/llm-configurations.service.js';
import type { AskCheckpoint, AskService } from '../runtime/ask.service.js';
import { costOf } from '../runtime/cost.js';
import type { AnsweredResult } from './evaluation-results.repo.js';

/** What every query of one run shares. */
export interface RunContext {
  actor: Actor;
  evaluationId: number;
  agentId: number;
  /** The agent's project and team, which its usage events count towards (read once a run). */
  owner: { project_id: number | null; team_id: number | null };
  checkpoint: AskCheckpoint;
  metrics: MetricDefinition[];
  /** The judge model of a configuration, resolved once a run; undefined when the configuration is gone. */
  judgeModel(configurationId: number): Promise<ResolvedModel | undefined>;
  embedder: Embedder | undefined;
  patterns: CompiledPatterns;
  /** Aborted when the run stops (cancelled, or the server shuts down): the query is then left pending. */
  signal: AbortSignal;
}

export interface PendingQuery {
  id: number;
  question: string;
  expected_answer: string | null;
  expected_sources: string;
}

export interface ScoreOf {
  metric_id: number;
  status: MetricOutcome['status'];
  score: number | null;
  passed: number | null;
  reason: string | null;
}

export interface QueryOutcome {
  result: AnsweredResult;
  scores: ScoreOf[];
  usage: UsageEvent[];
  spentNanoUsd: number;
}

export interface QueryEvaluatorDeps {
  store: UnitOfWork;
  asks: AskService;
  log: FastifyBaseLogger;
}

/** Asks and scores one query; undefined when the run stopped meanwhile (the query stays pending). */
export async function evaluateQuery(deps: QueryEvaluatorDeps, context: RunContext, pending: PendingQuery): Promise<QueryOutcome | undefined> {
  const query: QueryUnderTest = {
    question: pending.question,
    expected_answer: pending.expected_answer,
    expected_sources: JSON.parse(pending.expected_sources) as ExpectedSource[],
  };
  const usage: UsageEvent[] = [];
  const asked = await askAgent(deps, context, pending.question, usage);
  if (context.signal.aborted) return undefined;
  const { answer } = asked;
  let judgeNano: number | null = 0;
  const scores = await Promise.all(
    context.metrics.map(async (metric): Promise<ScoreOf> => {
      const judged = await scoreMetric(context, metric, query, answer, asked.citationsText);
      if (judged.cost !== undefined) {
        usage.push(judged.cost.event);
        judgeNano = judgeNano === null || judged.cost.usd === null ? null : judgeNano + toNanoUsd(judged.cost.usd);
      }
      const { outcome } = judged;
      const score = outcome.status === 'ok' ? outcome.score : null;
      const pass = score === null ? null : passes(metric.kind, metric.threshold, score);
      return { metric_id: metric.id, status: outcome.status, score, passed: pass === null ? null : Number(pass), reason: outcome.status === 'ok' ? (outcome.reason ?? null) : outcome.reason };
    }),
  );
  if (context.signal.aborted) return undefined;
  const spentNanoUsd = (answer.cost === null ? 0 : toNanoUsd(answer.cost)) + (judgeNano ?? 0);
  return {
    result: {
      ...asked.row,
      judge_cost: judgeNano === null ? null : judgeNano / 1e9,
      answered_on: now(),
    },
    scores,
    usage,
    spentNanoUsd,
  };
}

interface Asked {
  answer: AnswerUnderTest;
  citationsText: string[];
  row: Omit<AnsweredResult, 'judge_cost' | 'answered_on'>;
}

/** The agent's answer through the runtime; an ask that cannot be made is a failed answer, not a failed run. */
async function askAgent(deps: QueryEvaluatorDeps, context: RunContext, question: string, usage: UsageEvent[]): Promise<Asked> {
  const started = performance.now();
  try {
    const prepared = await deps.asks.prepare(context.actor, context.agentId, { query: question, checkpoint: context.checkpoint, record: false });
    const { answer } = await deps.asks.answer(context.actor, prepared, {}, context.signal);
    const retrieved = prepared.blocked ? [] : prepared.passages.map((passage) => ({ document_id: passage.document_id, source: passage.source, score: passage.score }));
    if (answer.tokens.prompt + answer.tokens.completion > 0 || (answer.cost ?? 0) > 0) {
      usage.push({
        kind: 'answer',
        status: answer.status,
        organization_id: context.actor.organizationId,
        agent_id: context.agentId,
        ...context.owner,
        user_id: context.actor.userId,
        evaluation_id: context.evaluationId,
        model: answer.model,
        llm_configuration_id: answer.llmConfigurationId,
        prompt_tokens: answer.tokens.prompt,
        completion_tokens: answer.tokens.completion,
        tokens_estimated: answer.tokens.estimated,
        cost: answer.cost,
        latency_ms: answer.latencyMs,
        occurred_on: now(),
      });
    }
    return {
      answer: {
        status: answer.status,
        answer: answer.text,
        error: answer.error,
        retrieved_ran: !prepared.blocked,
        retrieved,
        citations: answer.citations,
        latency_ms: answer.latencyMs,
        cost: answer.cost,
      },
      citationsText: answer.citations.map((citation) => citation.passage),
      row: {
        status: answer.status,
        answer: answer.text,
        error: answer.error,
        citations: JSON.stringify(answer.citations),
        retrieved: JSON.stringify(retrieved),
        model: answer.model,
        prompt_tokens: answer.tokens.prompt,
        completion_tokens: answer.tokens.completion,
        cost: answer.cost,
        latency_ms: answer.latencyMs,
      },
    };
  } catch (error) {
    // The database being away says nothing about the query: the run is retried once it is back.
    if (deps.store.isUnavailable(error)) throw error;
    const message = error instanceof AppError ? error.message : 'The agent could not answer: the server failed (the log has the details)';
    if (!(error instanceof AppError)) deps.log.error({ err: error, evaluation: context.evaluationId }, 'evaluation query failed');
    const latency = Math.round(performance.now() - started);
    return {
      answer: { status: 'failed', answer: '', error: message, retrieved_ran: false, retrieved: [], citations: [], latency_ms: latency, cost: null },
      citationsText: [],
      row: { status: 'failed', answer: '', error: message, citations: '[]', retrieved: '[]', model: null, prompt_tokens: 0, completion_tokens: 0, cost: null, latency_ms: latency },
    };
  }
}

interface Judged {
  outcome: MetricOutcome;
  /** A model call made for the score (a judge's), with its usage event and price. */
  cost?: { event: UsageEvent; usd: number | null };
}

async function scoreMetric(context: RunContext, metric: MetricDefinition, query: QueryUnderTest, answer: AnswerUnderTest, passages: string[]): Promise<Judged> {
  const plain = scoreWithoutModel(metric, query, answer, context.patterns);
  if (plain !== undefined) return { outcome: plain };
  const early = precondition(metric, query, answer);
  if (early) return { outcome: early };
  if (metric.kind === 'semantic_similarity') return { outcome: await similarity(context, answer.answer, query.expected_answer ?? '') };
  const judge = KINDS[metric.kind].judge!;
  if (judge === 'faithfulness' && passages.length === 0) return { outcome: undetermined('The answer cites no passage to check its claims against') };
  const configurationId = metric.llm_configuration_id;
  if (configurationId === null) return { outcome: failed('The metric has no judge model') };
  const resolved = await context.judgeModel(configurationId);
  if (!resolved) return { outcome: failed(`The judge’s LLM configuration ${configurationId} no longer exists`) };
  const call = await runJudge(resolved.chatModel, judge, { question: query.question, answer: answer.answer, expected_answer: query.expected_answer, passages, rubric: metric.rubric ?? DEFAULT_CORRECTNESS_RUBRIC }, context.signal);
  const prices = { inputPerMillion: resolved.configuration.input_price_per_million, outputPerMillion: resolved.configuration.output_price_per_million };
  const usd = costOf(call.tokens, prices);
  const event: UsageEvent = {
    kind: 'judge',
    organization_id: context.actor.organizationId,
    agent_id: context.agentId,
    ...context.owner,
    user_id: context.actor.userId,
    evaluation_id: context.evaluationId,
    model: resolved.configuration.model,
    llm_configuration_id: resolved.configuration.id,
    prompt_tokens: call.tokens.prompt,
    completion_tokens: call.tokens.completion,
    tokens_estimated: call.tokens.estimated,
    cost: usd,
    occurred_on: now(),
  };
  return { outcome: call.outcome, cost: { event, usd } };
}

async function similarity(context: RunContext, answer: string, expected: string): Promise<MetricOutcome> {
  if (!context.embedder) return undetermined('No embedding model is configured (EMBEDDING_BASE_URL)');
  if (answer.trim() === '') return scored(0, 'The answer is empty');
  try {
    const [a, b] = await context.embedder.embed([answer, expected]);
    const cosine = cosineSimilarity(a ?? [], b ?? []);
    return cosine === undefined ? undetermined('The embedder gave vectors that cannot be compared') : scored(cosine);
  } catch (error) {
    return failed(`The embedding model failed: ${(error as Error).message}`);
  }
}

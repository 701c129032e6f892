// Scores an answer with a metric that needs no model: its text against the expected answer, its
// figures (length, latency, cost), and what it drew on against the expected sources. Judge metrics
// and semantic similarity call a model (judge.ts, the runner); what they and these share — when a
// result is undetermined or an error before any scoring — is decided here too.
import { compileLinear, WORK_BUDGET, type LinearRegExp } from '../regexp/index.js';
import type { MetricKind } from './metric-kinds.js';
import { KINDS } from './metric-kinds.js';
import { failed, scored, undetermined, type MetricOutcome } from './outcome.js';
import {
  citationPrecision,
  citationRecall,
  hitAtK,
  precisionAtK,
  recallAtK,
  reciprocalRank,
  type ExpectedSource,
  type SourceDocument,
} from './source-metrics.js';
import { answerLength, containsText, exactMatch, rougeL, tokenF1, type LengthUnit } from './text-metrics.js';

/** A metric as an evaluation holds it (snapshotted when the evaluation was created). */
export interface MetricDefinition {
  id: number;
  name: string;
  kind: MetricKind;
  parameters: Record<string, unknown>;
  threshold: number | null;
  rubric: string | null;
  llm_configuration_id: number | null;
}

export interface QueryUnderTest {
  question: string;
  expected_answer: string | null;
  expected_sources: ExpectedSource[];
}

/** What the agent did with a query, as the metrics read it. */
export interface AnswerUnderTest {
  status: 'completed' | 'blocked' | 'failed';
  answer: string;
  error: string | null;
  /** Whether retrieval ran (a question blocked at the input, or an ask that failed before answering, retrieved nothing). */
  retrieved_ran: boolean;
  retrieved: SourceDocument[];
  citations: (SourceDocument & { passage: string })[];
  latency_ms: number;
  cost: number | null;
}

/** A regular expression kept compiled per metric: a metric's pattern is compiled once an evaluation. */
export type CompiledPatterns = Map<number, LinearRegExp>;

/**
 * Answers are cut to this many characters before a pattern reads them, or fewer for a large pattern:
 * as many as its program size lets RE2 read within one check's budget of steps (src/regexp).
 */
export const REGEX_INPUT_CHARACTERS = 100_000;

/**
 * What is known before scoring: an error when the metric reads what failed, undetermined when the
 * query lacks what the metric compares with. undefined: the metric can score.
 */
export function precondition(metric: MetricDefinition, query: QueryUnderTest, answer: AnswerUnderTest): MetricOutcome | undefined {
  const { needs } = KINDS[metric.kind];
  if (needs === 'expected_sources') {
    if (query.expected_sources.length === 0) return undetermined('The query has no expected sources');
    const readsRetrieval = metric.kind === 'hit_at_k' || metric.kind === 'recall_at_k' || metric.kind === 'precision_at_k' || metric.kind === 'mrr';
    if (readsRetrieval && !answer.retrieved_ran) return answer.status === 'blocked' ? undetermined('Retrieval did not run: a guardrail blocked the question') : failed(`The agent failed: ${answer.error ?? 'no answer'}`);
    if (readsRetrieval) return undefined;
  }
  if (answer.status === 'failed') return failed(`The agent failed: ${answer.error ?? 'no answer'}`);
  const needsExpectedAnswer = needs === 'expected_answer' || needs === 'embedder' || metric.kind === 'correctness';
  const hasOwnText = metric.kind === 'contains' && typeof metric.parameters.text === 'string';
  if (needsExpectedAnswer && !hasOwnText && (query.expected_answer === null || query.expected_answer.trim() === '')) {
    return undetermined('The query has no expected answer');
  }
  if (needs === 'judge' && answer.status === 'blocked') return undetermined('A guardrail blocked the answer: there is nothing to judge');
  return undefined;
}

/** The score of a metric that needs no model; undefined for the kinds that do (judges, semantic similarity). */
export function scoreWithoutModel(metric: MetricDefinition, query: QueryUnderTest, answer: AnswerUnderTest, patterns: CompiledPatterns): MetricOutcome | undefined {
  const early = precondition(metric, query, answer);
  if (early) return early;
  const expected = query.expected_answer ?? '';
  const sources = query.expected_sources;
  const k = typeof metric.parameters.k === 'number' ? metric.parameters.k : 5;
  switch (metric.kind) {
    case 'exact_match':
      return scored(exactMatch(answer.answer, expected, metric.parameters.normalize !== false));
    case 'contains':
      return scored(containsText(answer.answer, typeof metric.parameters.text === 'string' ? metric.parameters.text : expected, metric.parameters.case_sensitive === true));
    case 'regex':
      return scoreRegex(metric, answer.answer, patterns);
    case 'token_f1':
      return scored(tokenF1(answer.answer, expected));
    case 'rouge_l':
      return scored(rougeL(answer.answer, expected));
    case 'answer_length':
      return scored(answerLength(answer.answer, (metric.parameters.unit as LengthUnit | undefined) ?? 'words'));
    case 'latency':
      return scored(answer.latency_ms);
    case 'cost':
      return answer.cost === null ? undetermined('The answer’s cost is unknown: its model has no price') : scored(answer.cost);
    case 'hit_at_k':
      return scored(hitAtK(sources, answer.retrieved, k));
    case 'recall_at_k':
      return scored(recallAtK(sources, answer.retrieved, k));
    case 'precision_at_k':
      return scored(precisionAtK(sources, answer.retrieved, k));
    case 'mrr':
      return scored(reciprocalRank(sources, answer.retrieved));
    case 'citation_precision': {
      const precision = citationPrecision(sources, answer.citations);
      return precision === undefined ? undetermined('The answer cites no passage') : scored(precision);
    }
    case 'citation_recall':
      return scored(citationRecall(sources, answer.citations));
    default:
      return undefined;
  }
}

function scoreRegex(metric: MetricDefinition, answer: string, patterns: CompiledPatterns): MetricOutcome {
  let pattern = patterns.get(metric.id);
  if (pattern === undefined) {
    try {
      // The u flag is always on (src/regexp reads every pattern so): it is left out of the flags given.
      pattern = compileLinear(String(metric.parameters.pattern), typeof metric.parameters.flags === 'string' ? metric.parameters.flags.replace('u', '') : '');
    } catch (error) {
      // A metric saved before its pattern was checked for RE2.
      return failed(`The pattern cannot be run: it ${(error as Error).message}`);
    }
    patterns.set(metric.id, pattern);
  }
  const matched = pattern.test(answer.slice(0, Math.min(REGEX_INPUT_CHARACTERS, pattern.charactersWithin(WORK_BUDGET) - 1)));
  return scored(Number(metric.parameters.must_match === false ? !matched : matched));
}

// The kinds of metric an evaluation can score, what each reads, which way is better, its
// parameters, and the built-in metric of each kind (listed by GET /api/v2/metrics with builtin:
// true; their rows are seeded by migration 2026_11_23_0014, their definitions live here).
import { Type, type TObject } from '@sinclair/typebox';
import type { JudgeKind } from './judge-prompts.js';

export const METRIC_KINDS = [
  'exact_match',
  'contains',
  'regex',
  'token_f1',
  'rouge_l',
  'answer_length',
  'latency',
  'cost',
  'hit_at_k',
  'recall_at_k',
  'precision_at_k',
  'mrr',
  'citation_precision',
  'citation_recall',
  'semantic_similarity',
  'faithfulness',
  'answer_relevance',
  'correctness',
  'custom_rubric',
] as const;

export type MetricKind = (typeof METRIC_KINDS)[number];

/** What a metric needs beyond the answer: a result without it is undetermined. */
export type MetricNeed = 'expected_answer' | 'expected_sources' | 'judge' | 'embedder' | null;

export interface KindDefinition {
  description: string;
  /** Scores from 0 to 1 (score), or a measure in a unit. */
  unit: 'score' | 'milliseconds' | 'usd' | 'words_characters_or_tokens' | 'cosine';
  /** Which way passes a threshold: a score at least it, or a measure at most it. */
  passWhen: 'at_least' | 'at_most';
  needs: MetricNeed;
  judge?: JudgeKind;
  /** The parameters it takes (every one optional unless said), checked when a metric is defined. */
  parameters: TObject;
  /** Whether a rubric is required (custom_rubric) or optional (correctness has a default). */
  rubric?: 'required' | 'optional';
  /** The built-in metric of this kind; none for kinds that need parameters of their own (regex, custom rubric). */
  builtin?: { name: string; parameters: Record<string, unknown>; threshold: number | null };
}

const K = Type.Integer({ minimum: 1, maximum: 100, description: 'How many of the best-ranked documents count (default 5)' });
const NONE = Type.Object({}, { additionalProperties: false });

export const KINDS: Record<MetricKind, KindDefinition> = {
  exact_match: {
    description: '1 when the answer is the expected answer after normalization (case, punctuation, articles and spaces ignored; normalize: false compares as written), else 0',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_answer',
    parameters: Type.Object({ normalize: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    builtin: { name: 'Exact match', parameters: {}, threshold: 1 },
  },
  contains: {
    description: '1 when the answer contains `text` (default: the expected answer), case ignored unless case_sensitive, else 0',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_answer',
    parameters: Type.Object(
      { text: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })), case_sensitive: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    builtin: { name: 'Contains the expected answer', parameters: {}, threshold: 1 },
  },
  regex: {
    description: '1 when the answer matches `pattern` (with `flags` among i, m, s, u), or does not when must_match is false, else 0. The pattern runs on RE2, in time linear in the answer: lookaround and backreferences are refused',
    unit: 'score',
    passWhen: 'at_least',
    needs: null,
    parameters: Type.Object(
      {
        pattern: Type.String({ minLength: 1, maxLength: 1000 }),
        flags: Type.Optional(Type.String({ pattern: '^(?!.*(.).*\\1)[imsu]*$', maxLength: 4 })),
        must_match: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
  },
  token_f1: {
    description: 'Harmonic mean of the precision and recall of the answer’s words against the expected answer’s (normalized as for exact match), 0 to 1',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_answer',
    parameters: NONE,
    builtin: { name: 'Token F1', parameters: {}, threshold: 0.5 },
  },
  rouge_l: {
    description: 'ROUGE-L F1: the longest common subsequence of words of the answer and the expected answer, as precision and recall combined, 0 to 1',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_answer',
    parameters: NONE,
    builtin: { name: 'ROUGE-L', parameters: {}, threshold: 0.5 },
  },
  answer_length: {
    description: 'Length of the answer in `unit`: words (default), characters or tokens; passes at most the threshold',
    unit: 'words_characters_or_tokens',
    passWhen: 'at_most',
    needs: null,
    parameters: Type.Object(
      { unit: Type.Optional(Type.Union([Type.Literal('words'), Type.Literal('characters'), Type.Literal('tokens')])) },
      { additionalProperties: false },
    ),
    builtin: { name: 'Answer length', parameters: { unit: 'words' }, threshold: null },
  },
  latency: {
    description: 'Milliseconds from the question to the end of the answer; passes at most the threshold',
    unit: 'milliseconds',
    passWhen: 'at_most',
    needs: null,
    parameters: NONE,
    builtin: { name: 'Latency', parameters: {}, threshold: null },
  },
  cost: {
    description: 'USD the answer cost (undetermined where the model’s price is unknown); passes at most the threshold',
    unit: 'usd',
    passWhen: 'at_most',
    needs: null,
    parameters: NONE,
    builtin: { name: 'Cost', parameters: {}, threshold: null },
  },
  hit_at_k: {
    description: '1 when an expected source is among the k best-ranked documents retrieval found, else 0',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_sources',
    parameters: Type.Object({ k: Type.Optional(K) }, { additionalProperties: false }),
    builtin: { name: 'Hit@5', parameters: { k: 5 }, threshold: 1 },
  },
  recall_at_k: {
    description: 'Share of the expected sources among the k best-ranked documents retrieval found',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_sources',
    parameters: Type.Object({ k: Type.Optional(K) }, { additionalProperties: false }),
    builtin: { name: 'Recall@5', parameters: { k: 5 }, threshold: null },
  },
  precision_at_k: {
    description: 'Share of the k best-ranked places holding an expected source (a shorter list counts its empty places as misses)',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_sources',
    parameters: Type.Object({ k: Type.Optional(K) }, { additionalProperties: false }),
    builtin: { name: 'Precision@5', parameters: { k: 5 }, threshold: null },
  },
  mrr: {
    description: '1 / the rank of the first expected source among the documents retrieval found (0 when none); its mean is the MRR',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_sources',
    parameters: NONE,
    builtin: { name: 'Mean reciprocal rank', parameters: {}, threshold: null },
  },
  citation_precision: {
    description: 'Share of the documents the answer cites that are expected sources (undetermined when it cites nothing)',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_sources',
    parameters: NONE,
    builtin: { name: 'Citation precision', parameters: {}, threshold: null },
  },
  citation_recall: {
    description: 'Share of the expected sources the answer cites',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'expected_sources',
    parameters: NONE,
    builtin: { name: 'Citation recall', parameters: {}, threshold: null },
  },
  semantic_similarity: {
    description: 'Cosine similarity of the embeddings of the answer and the expected answer (-1 to 1), with the server’s embedding model; unavailable without one',
    unit: 'cosine',
    passWhen: 'at_least',
    needs: 'embedder',
    parameters: NONE,
    builtin: { name: 'Semantic similarity', parameters: {}, threshold: 0.8 },
  },
  faithfulness: {
    description: 'Share of the answer’s claims that the passages it cites support, as the judge model finds (undetermined when it cites nothing)',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'judge',
    judge: 'faithfulness',
    parameters: NONE,
    builtin: { name: 'Faithfulness', parameters: {}, threshold: 0.8 },
  },
  answer_relevance: {
    description: 'How well the answer addresses the question, as the judge model rates it from 1 to 5, given as 0 to 1',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'judge',
    judge: 'answer_relevance',
    parameters: NONE,
    builtin: { name: 'Answer relevance', parameters: {}, threshold: 0.75 },
  },
  correctness: {
    description: 'How correct the answer is against the expected answer, graded 1 to 5 by the judge model with a rubric (a default one unless given), given as 0 to 1',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'judge',
    judge: 'correctness',
    rubric: 'optional',
    parameters: NONE,
    builtin: { name: 'Correctness', parameters: {}, threshold: 0.75 },
  },
  custom_rubric: {
    description: 'The answer graded 1 to 5 by the judge model with your rubric, given as 0 to 1',
    unit: 'score',
    passWhen: 'at_least',
    needs: 'judge',
    judge: 'custom_rubric',
    rubric: 'required',
    parameters: NONE,
  },
};

/** Whether a score passes a threshold, the kind's way; null without a threshold. */
export function passes(kind: MetricKind, threshold: number | null, score: number): boolean | null {
  if (threshold === null) return null;
  // Scores computed as ratios (2/3) meet a threshold written in decimals (0.6667) they round to;
  // measures (milliseconds, dollars) are compared as they are.
  const tolerance = KINDS[kind].unit === 'score' ? 5e-5 : Math.abs(threshold) * 1e-12;
  return KINDS[kind].passWhen === 'at_least' ? score >= threshold - tolerance : score <= threshold + tolerance;
}

export const isMetricKind = (value: string): value is MetricKind => (METRIC_KINDS as readonly string[]).includes(value);

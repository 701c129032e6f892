// What the console says of each kind of metric when one is defined: its name, what it scores, the
// parameters it takes and whether a judge model grades it (docs/evaluations.md, "Metrics"). The
// server checks the parameters against the kind's own schema; this only offers the right fields.
import type { MetricKind } from '../evaluations-api';

export type ParameterField = 'k' | 'contains' | 'regex' | 'normalize' | 'unit';

interface KindInfo {
  label: string;
  detail: string;
  parameters?: ParameterField;
  /** Graded by a judge model, with a rubric (required or optional). */
  judge?: { rubric?: 'required' | 'optional' };
}

export const KIND_INFO: Record<MetricKind, KindInfo> = {
  exact_match: { label: 'Exact match', detail: '1 when the answer is the expected answer, after normalization', parameters: 'normalize' },
  contains: { label: 'Contains', detail: '1 when the answer contains a text (default: the expected answer)', parameters: 'contains' },
  regex: { label: 'Regular expression', detail: '1 when the answer matches a pattern (or does not)', parameters: 'regex' },
  token_f1: { label: 'Token F1', detail: 'Words shared with the expected answer, 0 to 1' },
  rouge_l: { label: 'ROUGE-L', detail: 'Longest common subsequence with the expected answer, 0 to 1' },
  answer_length: { label: 'Answer length', detail: 'Words, characters or tokens; passes at most the threshold', parameters: 'unit' },
  latency: { label: 'Latency', detail: 'Milliseconds to the end of the answer; passes at most the threshold' },
  cost: { label: 'Cost', detail: 'USD of the answer; passes at most the threshold' },
  hit_at_k: { label: 'Hit@k', detail: '1 when an expected source is among the k best documents', parameters: 'k' },
  recall_at_k: { label: 'Recall@k', detail: 'Share of the expected sources among the k best documents', parameters: 'k' },
  precision_at_k: { label: 'Precision@k', detail: 'Share of the k best documents that are expected', parameters: 'k' },
  mrr: { label: 'Reciprocal rank', detail: '1 / the rank of the first expected document' },
  citation_precision: { label: 'Citation precision', detail: 'Cited documents that are expected / cited documents' },
  citation_recall: { label: 'Citation recall', detail: 'Expected sources the answer cites / expected sources' },
  semantic_similarity: { label: 'Semantic similarity', detail: 'Cosine of the embeddings of the answer and the expected answer' },
  faithfulness: { label: 'Faithfulness (judge)', detail: 'Claims of the answer supported by its cited passages', judge: {} },
  answer_relevance: { label: 'Answer relevance (judge)', detail: 'How well the answer addresses the question, 1 to 5', judge: {} },
  correctness: { label: 'Correctness (judge)', detail: 'The answer against the expected answer with a rubric, 1 to 5', judge: { rubric: 'optional' } },
  custom_rubric: { label: 'Your rubric (judge)', detail: 'How well the answer meets your rubric, 1 to 5', judge: { rubric: 'required' } },
};

export const KIND_OPTIONS = (Object.keys(KIND_INFO) as MetricKind[]).map((id) => ({ id, label: KIND_INFO[id].label, detail: KIND_INFO[id].detail }));

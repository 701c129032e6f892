// Metrics of the answer's text against the expected answer, computed here without a model. Each
// takes plain strings and answers a number from 0 to 1 (answer length: a count).
import { countTokens } from '../ingest/tokens.js';
import { answerTokens, collapseSpaces, normalizeAnswer } from './text-normalization.js';

/** 1 when the answer is the expected answer: after normalization (SQuAD), or as written when `normalize` is false. */
export function exactMatch(answer: string, expected: string, normalize = true): number {
  return normalize ? Number(normalizeAnswer(answer) === normalizeAnswer(expected)) : Number(collapseSpaces(answer) === collapseSpaces(expected));
}

/** 1 when the answer holds the text (white space collapsed; case ignored unless `caseSensitive`). */
export function containsText(answer: string, text: string, caseSensitive = false): number {
  const fold = (value: string) => (caseSensitive ? collapseSpaces(value) : collapseSpaces(value).toLowerCase());
  return Number(fold(answer).includes(fold(text)));
}

/** How many of each word a list holds. */
function wordCounts(words: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/**
 * The harmonic mean of precision (shared words / answer words) and recall (shared words /
 * expected words) over normalized words, each word counted as often as both hold it (SQuAD's F1).
 * Two empty texts agree (1); one empty text shares nothing (0).
 */
export function tokenF1(answer: string, expected: string): number {
  const predicted = answerTokens(answer);
  const reference = answerTokens(expected);
  if (predicted.length === 0 || reference.length === 0) return Number(predicted.length === reference.length);
  const referenceCounts = wordCounts(reference);
  let shared = 0;
  for (const [word, count] of wordCounts(predicted)) shared += Math.min(count, referenceCounts.get(word) ?? 0);
  if (shared === 0) return 0;
  const precision = shared / predicted.length;
  const recall = shared / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

/** ROUGE-L reads at most this many words of each text: the table it fills grows with their product. */
export const ROUGE_MAX_WORDS = 2000;

/** Length of the longest common subsequence of two word lists, in one row of memory. */
export function longestCommonSubsequence(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const row = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * ROUGE-L F1: the longest common subsequence of normalized words, as precision (over the answer's
 * words) and recall (over the expected answer's), combined by their harmonic mean.
 */
export function rougeL(answer: string, expected: string): number {
  const predicted = answerTokens(answer).slice(0, ROUGE_MAX_WORDS);
  const reference = answerTokens(expected).slice(0, ROUGE_MAX_WORDS);
  if (predicted.length === 0 || reference.length === 0) return Number(predicted.length === reference.length);
  const common = longestCommonSubsequence(predicted, reference);
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

export type LengthUnit = 'words' | 'characters' | 'tokens';

/** The answer's length: words (runs of non-space), characters (code points) or tokens (cl100k). */
export function answerLength(answer: string, unit: LengthUnit): number {
  if (unit === 'characters') return [...answer].length;
  if (unit === 'tokens') return answer === '' ? 0 : countTokens(answer);
  return answer.match(/\S+/g)?.length ?? 0;
}

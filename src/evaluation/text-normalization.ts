// Answers compared as words, the way SQuAD's evaluation compares them: lower case, punctuation and
// the articles a, an and the taken out, white space collapsed. So "The Eiffel Tower." matches
// "eiffel tower", and token overlap is not spoiled by commas.
import { LRUCache } from 'lru-cache';

const PUNCTUATION = /[\p{P}\p{S}]/gu;
const ARTICLES = /\b(a|an|the)\b/g;

/**
 * The last texts normalized: exact match, token F1 and ROUGE-L each normalize the same answer and
 * expected answer of a query, and the Unicode classes make it the dearest step of their scoring.
 */
const recent = new LRUCache<string, string>({ max: 64 });
/** Longer texts are normalized each time: the memory kept stays bounded (64 of them at most). */
const RECENT_CHARACTERS = 20_000;

export function normalizeAnswer(text: string): string {
  const known = recent.get(text);
  if (known !== undefined) return known;
  const normalized = text.toLowerCase().replace(PUNCTUATION, ' ').replace(ARTICLES, ' ').replace(/\s+/g, ' ').trim();
  if (text.length > RECENT_CHARACTERS) return normalized;
  recent.set(text, normalized);
  return normalized;
}

/** The normalized words of a text. */
export function answerTokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** White space collapsed and trimmed, case kept: text compared as written. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

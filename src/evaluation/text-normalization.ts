// Answers compared as words, the way SQuAD's evaluation compares them: lower case, punctuation and
// the articles a, an and the taken out, white space collapsed. So "The Eiffel Tower." matches
// "eiffel tower", and token overlap is not spoiled by commas.

const PUNCTUATION = /[\p{P}\p{S}]/gu;
const ARTICLES = /\b(a|an|the)\b/g;

export function normalizeAnswer(text: string): string {
  return text.toLowerCase().replace(PUNCTUATION, ' ').replace(ARTICLES, ' ').replace(/\s+/g, ' ').trim();
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

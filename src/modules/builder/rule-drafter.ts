// The drafter used when the organization has no model configured: deterministic rules over the
// description's keywords (docs/builder.md states them). Its draft is as valid as a model's and names
// only the candidates given.
import type { AgentDraft } from './builder.schemas.js';
import type { Candidate, Candidates } from './builder-candidates.js';

/** Words that say nothing about the agent's subject. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from has have help helps how i in into is it its me my of on or our ' +
    'should so that the their them they this to us we what when where which who will with would you your ' +
    'agent agents assistant assistants bot chatbot answer answers answering question questions ask asks user users ' +
    'about all any some also more most make makes want need needs please like just use uses using based give gives'
  ).split(' '),
);

/** Keywords of a text in order of first appearance, as written (case kept for the name). */
export function keywordsOf(text: string): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
    const key = stem(word);
    // Two-letter words are kept only as capitals (HR, IT, EU), which name a subject.
    const tooShort = word.length < 3 && !/^\p{Lu}{2}$/u.test(word);
    if (tooShort || STOP_WORDS.has(word.toLowerCase()) || seen.has(key)) continue;
    seen.add(key);
    keywords.push(word);
  }
  return keywords;
}

/** Lower case without a plural ending, so that "policy" finds "Policies" and "invoice" finds "invoices". */
function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.endsWith('ies') && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (lower.endsWith('s') && !lower.endsWith('ss') && lower.length > 3) return lower.slice(0, -1);
  return lower;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** Candidates whose name or description shares a keyword with the description, by id. */
function matching(candidates: Candidate[], keywords: Set<string>): number[] {
  return candidates
    .filter((candidate) => keywordsOf(`${candidate.name} ${candidate.description}`).some((word) => keywords.has(stem(word))))
    .map((candidate) => candidate.id)
    .sort((a, b) => a - b);
}

export function draftByRules(description: string, candidates: Candidates): AgentDraft {
  const text = description.trim().replace(/\s+/g, ' ');
  const keywords = keywordsOf(text);
  const subject = keywords.slice(0, 3);
  const name = subject.length === 0 ? 'New assistant' : `${subject.map(capitalized).join(' ')} assistant`;
  const topic = subject.length === 0 ? 'the subject described' : subject.join(', ');
  const stems = new Set(keywords.map(stem));
  return {
    name: cut(name, 200),
    description: cut(text, 2000),
    instructions: [
      `You are ${name}. Your purpose: ${cut(text, 4000)}`,
      `Answer questions about ${topic} clearly and concisely.`,
      'Base your answers on the documents provided and cite them; when they do not hold the answer, say so rather than guess.',
      'Ask a clarifying question when a request is ambiguous.',
    ].join('\n'),
    // Two at least, as the draft schema asks of a model (DRAFT_STARTERS), and four at most.
    conversation_starters: [
      `What can you help me with about ${topic}?`,
      ...subject.slice(0, 2).map((word) => cut(`Give me an overview of ${word}.`, 500)),
      ...(subject.length > 1 ? [cut(`What should I know first about ${subject[0]} and ${subject[1]}?`, 500)] : []),
      ...(subject.length === 0 ? ['What do you need to know from me to help?'] : []),
    ].map((starter) => cut(starter, 500)),
    corpus_ids: matching(candidates.corpora, stems),
    tool_ids: matching(candidates.tools, stems),
    guardrail_ids: matching(candidates.guardrails, stems),
  };
}

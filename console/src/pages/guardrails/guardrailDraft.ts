// A guardrail as its form holds it, to and from what the API takes, and checked before it is sent as
// the server checks it (src/modules/guardrails/guardrails.schemas.ts and guardrail-config.ts): the
// server still decides, and what only it can tell (a pattern that could backtrack, a name taken) comes
// back as its message.
import { GUARDRAIL_STAGES, type Guardrail, type GuardrailAction, type GuardrailStage, type GuardrailType } from './guardrail-api';

/** The server's bounds (LIMITS of guardrails.schemas.ts). */
export const LIMITS = {
  name: 200,
  terms: 100_000,
  termCharacters: 200,
  patterns: 50,
  patternCharacters: 500,
  topics: 100,
  topicCharacters: 200,
  lengthMax: 10_000_000,
  testCharacters: 200_000,
} as const;

/** How the server reads a pattern: ignoring case, globally, as Unicode (PATTERN_FLAGS). */
const PATTERN_FLAGS = 'giu';

export interface GuardrailDraft {
  name: string;
  type: GuardrailType;
  stages: GuardrailStage[];
  action: GuardrailAction;
  /** pii: the entity types looked for; none chosen means every one. */
  entities: string[];
  /** blocked_terms: one a line. */
  terms: string;
  patterns: string;
  /** length */
  maxCharacters: number | null;
  maxTokens: number | null;
  /** topic: one a line. */
  allowed: string;
  denied: string;
  threshold: number | null;
  language: string;
}

export type DraftField = 'name' | 'stages' | 'entities' | 'terms' | 'patterns' | 'length' | 'maxCharacters' | 'maxTokens' | 'allowed' | 'denied' | 'topics' | 'threshold';
export type DraftProblems = Partial<Record<DraftField, string>>;

export const EMPTY_DRAFT: GuardrailDraft = {
  name: '',
  type: 'pii',
  stages: ['input', 'output'],
  action: 'redact',
  entities: [],
  terms: '',
  patterns: '',
  maxCharacters: null,
  maxTokens: null,
  allowed: '',
  denied: '',
  threshold: null,
  language: 'english',
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

export function draftOf(guardrail: Guardrail): GuardrailDraft {
  const config = guardrail.config;
  return {
    ...EMPTY_DRAFT,
    name: guardrail.name,
    type: guardrail.type,
    stages: [...guardrail.stages],
    action: guardrail.action,
    entities: strings(config.entities),
    terms: strings(config.terms).join('\n'),
    patterns: strings(config.patterns).join('\n'),
    maxCharacters: numberOrNull(config.max_characters),
    maxTokens: numberOrNull(config.max_tokens),
    allowed: strings(config.allowed).join('\n'),
    denied: strings(config.denied).join('\n'),
    threshold: numberOrNull(config.threshold),
    language: typeof config.language === 'string' ? config.language : 'english',
  };
}

/** The settings of the draft's type, as the API takes them (only what is set). */
export function configOf(draft: GuardrailDraft): Record<string, unknown> {
  switch (draft.type) {
    case 'pii':
      return draft.entities.length === 0 ? {} : { entities: draft.entities };
    case 'blocked_terms': {
      const patterns = lines(draft.patterns);
      return { terms: lines(draft.terms), ...(patterns.length === 0 ? {} : { patterns }) };
    }
    case 'length':
      return {
        ...(draft.maxCharacters === null ? {} : { max_characters: draft.maxCharacters }),
        ...(draft.maxTokens === null ? {} : { max_tokens: draft.maxTokens }),
      };
    case 'topic': {
      const allowed = lines(draft.allowed);
      const denied = lines(draft.denied);
      return {
        ...(allowed.length === 0 ? {} : { allowed }),
        ...(denied.length === 0 ? {} : { denied }),
        ...(draft.threshold === null ? {} : { threshold: draft.threshold }),
        language: draft.language,
      };
    }
  }
}

export function bodyOf(draft: GuardrailDraft) {
  const stages = GUARDRAIL_STAGES.filter((stage) => draft.stages.includes(stage));
  return { name: draft.name.trim(), type: draft.type, stages, action: draft.action, config: configOf(draft) };
}

function listProblem(items: string[], most: number, longest: number, noun: string): string | undefined {
  if (items.length > most) return `At most ${most} ${noun}s (${items.length} given).`;
  const tooLong = items.findIndex((item) => item.length > longest);
  if (tooLong >= 0) return `Line ${tooLong + 1} is longer than ${longest} characters.`;
  return undefined;
}

function patternProblem(patterns: string[]): string | undefined {
  const listed = listProblem(patterns, LIMITS.patterns, LIMITS.patternCharacters, 'pattern');
  if (listed !== undefined) return listed;
  for (const [index, pattern] of patterns.entries()) {
    try {
      new RegExp(pattern, PATTERN_FLAGS);
    } catch (error) {
      return `Line ${index + 1} is not a regular expression: ${(error as Error).message}`;
    }
  }
  return undefined;
}

const wholeInRange = (value: number | null) => value === null || (Number.isInteger(value) && value >= 1 && value <= LIMITS.lengthMax);

/** What the server would refuse in the draft, by field; empty when it may be sent. */
export function problemsOf(draft: GuardrailDraft): DraftProblems {
  const problems: DraftProblems = {};
  const name = draft.name.trim();
  if (name === '') problems.name = 'Give the guardrail a name.';
  else if (draft.name.length > LIMITS.name) problems.name = `At most ${LIMITS.name} characters.`;
  if (draft.stages.length === 0) problems.stages = 'Choose at least one stage.';
  switch (draft.type) {
    case 'pii':
      break;
    case 'blocked_terms': {
      const terms = lines(draft.terms);
      const patterns = lines(draft.patterns);
      if (terms.length === 0 && patterns.length === 0) problems.terms = 'Give at least one term, or a pattern.';
      else problems.terms = listProblem(terms, LIMITS.terms, LIMITS.termCharacters, 'term');
      problems.patterns = patternProblem(patterns);
      break;
    }
    case 'length':
      if (draft.maxCharacters === null && draft.maxTokens === null) problems.length = 'Set a most characters, a most tokens, or both.';
      if (!wholeInRange(draft.maxCharacters)) problems.maxCharacters = `A whole number from 1 to ${LIMITS.lengthMax.toLocaleString('en')}.`;
      if (!wholeInRange(draft.maxTokens)) problems.maxTokens = `A whole number from 1 to ${LIMITS.lengthMax.toLocaleString('en')}.`;
      break;
    case 'topic': {
      const allowed = lines(draft.allowed);
      const denied = lines(draft.denied);
      if (allowed.length === 0 && denied.length === 0) problems.topics = 'Give allowed topics, denied topics, or both.';
      problems.allowed = listProblem(allowed, LIMITS.topics, LIMITS.topicCharacters, 'topic');
      problems.denied = listProblem(denied, LIMITS.topics, LIMITS.topicCharacters, 'topic');
      if (draft.threshold !== null && (draft.threshold < 0 || draft.threshold > 1)) problems.threshold = 'From 0 to 1.';
      break;
    }
  }
  for (const key of Object.keys(problems) as DraftField[]) if (problems[key] === undefined) delete problems[key];
  return problems;
}

/** Whether two drafts would save the same guardrail (the order entities were ticked in aside). */
export function sameGuardrail(a: GuardrailDraft, b: GuardrailDraft): boolean {
  const saved = (draft: GuardrailDraft) => JSON.stringify(bodyOf({ ...draft, entities: [...draft.entities].sort() }));
  return saved(a) === saved(b);
}

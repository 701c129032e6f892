// The server's refusal of a guardrail, said by the field it is about: a 400's details point at
// /body/name, /body/config/patterns/2 …; a 409 is a name already taken. What points nowhere in the form
// stays in the message shown under it.
import { ApiError } from '../../api/errors';
import type { DraftField, DraftProblems } from './guardrailDraft';

const FIELDS: readonly [RegExp, DraftField][] = [
  [/^\/body\/name$/, 'name'],
  [/^\/body\/stages/, 'stages'],
  [/^\/body\/config\/terms(?:\/(\d+))?/, 'terms'],
  [/^\/body\/config\/patterns(?:\/(\d+))?/, 'patterns'],
  [/^\/body\/config\/allowed(?:\/(\d+))?/, 'allowed'],
  [/^\/body\/config\/denied(?:\/(\d+))?/, 'denied'],
  [/^\/body\/config\/max_characters/, 'maxCharacters'],
  [/^\/body\/config\/max_tokens/, 'maxTokens'],
  [/^\/body\/config\/threshold/, 'threshold'],
];

export function serverProblemsOf(error: unknown): DraftProblems {
  if (!(error instanceof ApiError)) return {};
  if (error.status === 409) return { name: error.message };
  const problems: DraftProblems = {};
  for (const detail of error.details) {
    for (const [pattern, field] of FIELDS) {
      const match = pattern.exec(detail.pointer);
      if (match === null) continue;
      const line = match[1] === undefined ? '' : `Line ${Number(match[1]) + 1} `;
      problems[field] ??= `${line}${detail.message}`;
      break;
    }
  }
  return problems;
}

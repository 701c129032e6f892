// A model's draft read strictly: JSON (a code fence around it tolerated), checked against the agent
// schema's own field rules with the project's Ajv. Problems come back as lines the model can act on
// in its repair round. The validator is compiled with the first draft read, not at start.
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { AgentDraftSchema, type AgentDraft } from './builder.schemas.js';

let validator: ValidateFunction<AgentDraft> | undefined;

function draftValidator(): ValidateFunction<AgentDraft> {
  if (!validator) {
    const require = createRequire(import.meta.url);
    const { Ajv } = require('ajv') as typeof import('ajv');
    const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile<AgentDraft>(AgentDraftSchema);
  }
  return validator;
}

export type DraftReading = { ok: true; draft: AgentDraft } | { ok: false; problems: string[] };

/** The JSON object in an answer: the whole text, or what a ```json fence holds. */
function jsonText(answer: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(answer);
  return (fenced ? fenced[1]! : answer).trim();
}

export function readDraft(answer: string): DraftReading {
  let value: unknown;
  try {
    value = JSON.parse(jsonText(answer));
  } catch {
    return { ok: false, problems: ['The answer is not a JSON object: answer with the JSON object only, no other text'] };
  }
  const validateDraft = draftValidator();
  if (validateDraft(value)) {
    const { name, description, instructions, conversation_starters, corpus_ids, tool_ids, guardrail_ids } = value;
    // Only the draft's fields: anything else the model added is not part of it.
    return { ok: true, draft: { name, description, instructions, conversation_starters, corpus_ids, tool_ids, guardrail_ids } };
  }
  const problems = (validateDraft.errors ?? []).slice(0, 20).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  return { ok: false, problems };
}

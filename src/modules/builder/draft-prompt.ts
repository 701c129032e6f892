// What the model is asked: the draft's JSON shape, the only ids it may choose from, and the
// description as the user's message (data, not instructions to the server).
import type { ChatMessage } from '../../providers/chat/chat-model.js';
import { AgentDraftSchema, DRAFT_STARTERS } from './builder.schemas.js';
import type { Candidate, Candidates } from './builder-candidates.js';

// The limits are the draft schema's, which the answer is validated against (draft-validation.ts).
const fields = AgentDraftSchema.properties;
const SHAPE = `{
  "name": string (${fields.name.minLength}-${fields.name.maxLength} characters),
  "description": string (at most ${fields.description.maxLength} characters),
  "instructions": string (the agent's system prompt),
  "conversation_starters": array of ${DRAFT_STARTERS.min} to ${DRAFT_STARTERS.max} strings (each at most ${fields.conversation_starters.items.maxLength} characters),
  "corpus_ids": array of integer ids from CORPORA,
  "tool_ids": array of integer ids from TOOLS,
  "guardrail_ids": array of integer ids from GUARDRAILS
}`;

const listed = (candidates: Candidate[]) =>
  candidates.length === 0 ? '(none)' : candidates.map((candidate) => `- ${candidate.id}: ${candidate.name}${candidate.description ? ` — ${candidate.description.slice(0, 200)}` : ''}`).join('\n');

export function draftMessages(description: string, candidates: Candidates): ChatMessage[] {
  const system = [
    'You design AI agents. From the description the user gives, write a complete agent configuration.',
    `Answer with one JSON object and nothing else, of this shape:\n${SHAPE}`,
    'Choose corpora, tools and guardrails only from the lists below, by id, and only those that fit the description; an empty list is fine.',
    `CORPORA:\n${listed(candidates.corpora)}`,
    `TOOLS:\n${listed(candidates.tools)}`,
    `GUARDRAILS:\n${listed(candidates.guardrails)}`,
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: description },
  ];
}

/** The repair round: the model's answer and what was wrong with it. */
export function repairMessages(previous: ChatMessage[], answer: string, problems: string[]): ChatMessage[] {
  return [
    ...previous,
    { role: 'assistant', content: answer },
    { role: 'user', content: `That answer does not validate:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with the corrected JSON object only.` },
  ];
}

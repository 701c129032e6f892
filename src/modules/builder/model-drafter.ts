// The organization's model writes the draft: one call, and when its answer does not validate one
// repair round that sends the problems back; a second invalid answer is a 502. Tokens of every call
// are summed, so that the cost covers the repair round too. A model that ignores the draft's max
// tokens is not read past them (answer-length.ts), nor billed past them.
import { UpstreamError, UpstreamTimeout } from '../../errors.js';
import { countTokens } from '../../ingest/tokens.js';
import { ModelCallError, type ChatMessage, type ChatModel, type ChatUsage } from '../../providers/chat/chat-model.js';
import { CHARACTERS_PER_TOKEN, textWithin } from '../runtime/answer-length.js';
import { tokensOf, type TokenCount } from '../runtime/cost.js';
import type { AgentDraft } from './builder.schemas.js';
import type { Candidates } from './builder-candidates.js';
import { draftMessages, repairMessages } from './draft-prompt.js';
import { readDraft } from './draft-validation.js';

/** Room for a long set of instructions; a draft is far smaller than an answer's budget. */
const DRAFT_MAX_TOKENS = 4000;
const DRAFT_MAX_CHARACTERS = DRAFT_MAX_TOKENS * CHARACTERS_PER_TOKEN;
/** Drafts should be predictable rather than inventive. */
const DRAFT_TEMPERATURE = 0.2;

export interface ModelDraftOutcome {
  /** undefined: the model's answers never validated (problems says why). */
  draft: AgentDraft | undefined;
  problems: string[];
  tokens: TokenCount;
  calls: number;
}

async function callModel(model: ChatModel, messages: ChatMessage[], timeoutMs: number): Promise<{ answer: string; tokens: TokenCount }> {
  let answer = '';
  let usage: ChatUsage | undefined;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for await (const event of model.stream({ messages, temperature: DRAFT_TEMPERATURE, maxTokens: DRAFT_MAX_TOKENS, signal })) {
      if (event.type === 'delta') answer += event.text;
      else if (event.type === 'usage') usage = event.usage;
      if (answer.length > DRAFT_MAX_CHARACTERS) {
        // Leaving the loop closes the provider's stream; the cut draft goes to the repair round.
        answer = textWithin(answer, DRAFT_MAX_CHARACTERS);
        break;
      }
    }
  } catch (error) {
    if (signal.aborted) throw new UpstreamTimeout(`The model did not answer within ${timeoutMs} ms`);
    if (error instanceof ModelCallError) throw error.status === 504 ? new UpstreamTimeout(error.message) : new UpstreamError(error.message);
    throw error;
  }
  const prompt = messages.reduce((sum, message) => sum + countTokens(message.content), 0);
  return { answer, tokens: tokensOf(usage, prompt, answer, DRAFT_MAX_TOKENS) };
}

const sum = (a: TokenCount, b: TokenCount): TokenCount => ({ prompt: a.prompt + b.prompt, completion: a.completion + b.completion, estimated: a.estimated || b.estimated });

export async function draftByModel(model: ChatModel, description: string, candidates: Candidates, timeoutMs: number): Promise<ModelDraftOutcome> {
  const messages = draftMessages(description, candidates);
  const first = await callModel(model, messages, timeoutMs);
  const firstReading = readDraft(first.answer);
  if (firstReading.ok) return { draft: firstReading.draft, problems: [], tokens: first.tokens, calls: 1 };
  const second = await callModel(model, repairMessages(messages, first.answer, firstReading.problems), timeoutMs);
  const secondReading = readDraft(second.answer);
  const tokens = sum(first.tokens, second.tokens);
  return secondReading.ok ? { draft: secondReading.draft, problems: [], tokens, calls: 2 } : { draft: undefined, problems: secondReading.problems, tokens, calls: 2 };
}

// The organization's model writes the draft: one call, and when its answer does not validate one
// repair round that sends the problems back; a second invalid answer is a 502. Tokens of every call
// are summed, so that the cost covers the repair round too. A model that ignores the draft's max
// tokens is not read past them (collect-stream.ts lets its stream go), nor billed past them.
import { UpstreamError, UpstreamTimeout } from '../../errors.js';
import { countTokens } from '../../ingest/tokens.js';
import { ModelCallError, type ChatMessage, type ChatModel } from '../../providers/chat/chat-model.js';
import { collectStream } from '../../providers/chat/collect-stream.js';
import { CHARACTERS_PER_TOKEN } from '../runtime/answer-length.js';
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
  // Past its most characters the draft is cut and the provider's stream let go of; the cut draft goes to the repair round.
  const collected = await collectStream(model, { request: { messages, temperature: DRAFT_TEMPERATURE, maxTokens: DRAFT_MAX_TOKENS }, timeoutMs, maxCharacters: DRAFT_MAX_CHARACTERS });
  if (collected.timedOut) throw new UpstreamTimeout(`The model did not answer within ${timeoutMs} ms`);
  if (collected.failure !== undefined) {
    const error = collected.failure.thrown;
    // The builder's callers need not read the LLM configuration: they are told the failure without its address or settings.
    if (error instanceof ModelCallError) throw error.status === 504 ? new UpstreamTimeout(error.publicMessage) : new UpstreamError(error.publicMessage);
    throw error;
  }
  const prompt = messages.reduce((sum, message) => sum + countTokens(message.content), 0);
  return { answer: collected.text, tokens: tokensOf(collected.usage, prompt, collected.text, DRAFT_MAX_TOKENS) };
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

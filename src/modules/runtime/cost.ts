// Tokens and cost of an answer. Tokens are the provider's where it reports usage; otherwise they are
// counted here with the tokenizer and marked estimated. Cost is the configuration's prices (USD per
// million tokens, copied onto the response) applied to them, and null when a price is unknown: a
// figure is never guessed.
import { countTokens } from '../../ingest/tokens.js';
import type { ChatUsage } from '../../providers/chat/chat-model.js';

export interface Prices {
  inputPerMillion: number | null;
  outputPerMillion: number | null;
}

export interface TokenCount {
  prompt: number;
  completion: number;
  estimated: boolean;
}

/** The provider's counts, or the prompt counted by the caller and the answer counted here, at most `maxCompletion`. */
export function tokensOf(usage: ChatUsage | undefined, countedPrompt: number, answer: string, maxCompletion = Number.POSITIVE_INFINITY): TokenCount {
  if (usage) return { prompt: usage.prompt, completion: usage.completion, estimated: false };
  return { prompt: countedPrompt, completion: answer === '' ? 0 : Math.min(countTokens(answer), maxCompletion), estimated: true };
}

/** Rounded to a millionth of a cent, which keeps sums free of floating-point dust. */
export const roundUsd = (usd: number) => Math.round(usd * 1e8) / 1e8;

export function costOf(tokens: { prompt: number; completion: number }, prices: Prices): number | null {
  if (prices.inputPerMillion === null || prices.outputPerMillion === null) return null;
  return roundUsd((tokens.prompt / 1e6) * prices.inputPerMillion + (tokens.completion / 1e6) * prices.outputPerMillion);
}

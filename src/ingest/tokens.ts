// Token counts for chunk budgets: the cl100k_base encoding (the tokenizer of OpenAI's
// text-embedding-3 models and GPT-4), from gpt-tokenizer, which ships its ranks inside the npm
// package. Measured at about 20–130 µs per 1.2 KB of text (docs/ingestion.md), fast enough to count
// exactly rather than estimate. Other embedding models tokenize differently; a budget in cl100k
// tokens is close enough to keep chunks under their limits with the usual margin.
import { countTokens as countCl100kTokens } from 'gpt-tokenizer/encoding/cl100k_base';

// Text that happens to contain "<|endoftext|>" is text: counted as characters, never refused.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return countCl100kTokens(text, AS_PLAIN_TEXT);
}

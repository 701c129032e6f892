// How long an answer may be. The LLM configuration sets the most tokens of an answer
// (max_answer_tokens), an agent may ask for fewer (max_tokens); the lower is sent to the provider as
// its max tokens and enforced here on what arrives, since a provider may ignore it. Enforcing it
// counts characters, which costs nothing per piece, where running the tokenizer over an answer as it
// grows would cost its length squared: about 4 characters a token, OpenAI's rule of thumb for English.
import type { AnsweringConfiguration } from './answering-model.js';

export const CHARACTERS_PER_TOKEN = 4;

/** The most tokens of an answer: the configuration's, or the agent's where lower, or the client's where lower still. */
export function answerTokenLimit(agentMaxTokens: number, configuration: Pick<AnsweringConfiguration, 'max_answer_tokens'> | null, clientMaxTokens?: number): number {
  const own = configuration === null ? agentMaxTokens : Math.min(agentMaxTokens, configuration.max_answer_tokens);
  return clientMaxTokens === undefined ? own : Math.min(own, clientMaxTokens);
}

/**
 * The most characters of an answer the server keeps. The offline answerer is not bounded: its text is
 * the server's own, a few quoted passages.
 */
export function answerCharacterLimit(tokens: number, configuration: AnsweringConfiguration | null): number {
  return configuration === null ? Number.POSITIVE_INFINITY : tokens * CHARACTERS_PER_TOKEN;
}

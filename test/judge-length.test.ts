// A judge model that writes on and on (a 10 MB answer, no usage) is let go of once its answer passes
// what a verdict can be: the stream is closed, and the tokens billed are those of what was read.
import { describe, expect, it } from 'vitest';
import { runJudge } from '../src/evaluation/judge.js';
import type { ChatEvent, ChatModel } from '../src/providers/chat/chat-model.js';

function endlessModel(): { model: ChatModel; pieces: () => number; closed: () => boolean } {
  let pieces = 0;
  let closed = false;
  const model: ChatModel = {
    model: 'endless',
    stream: () => ({
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<ChatEvent>> => {
          pieces++;
          return pieces > 10_000_000 / 100 ? { done: true, value: undefined } : { done: false, value: { type: 'delta', text: 'x'.repeat(100) } };
        },
        return: async (): Promise<IteratorResult<ChatEvent>> => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    }),
  };
  return { model, pieces: () => pieces, closed: () => closed };
}

describe('a judge that never stops writing', () => {
  it('is let go of after what a verdict can be, and billed for what was read', async () => {
    const endless = endlessModel();
    const call = await runJudge(endless.model, 'answer_relevance', { question: 'Why?', answer: 'Because.', expected_answer: null, passages: [], rubric: '' }, new AbortController().signal);
    expect(endless.closed()).toBe(true);
    expect(endless.pieces()).toBeLessThanOrEqual(64_000 / 100 + 1);
    expect(call.outcome.status).toBe('undetermined');
    expect(call.tokens.estimated).toBe(true);
    expect(call.tokens.completion).toBeLessThanOrEqual(64_000);
  });
});

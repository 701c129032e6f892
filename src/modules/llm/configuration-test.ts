// The test call of an LLM configuration: one small real request, timed, its failure classified.
import { performance } from 'node:perf_hooks';
import { ModelCallError, type ChatModel } from '../../providers/chat/chat-model.js';
import { collectStream } from '../../providers/chat/collect-stream.js';
import type { LlmTestResult } from './llm-configurations.schemas.js';

const PROMPT = 'Reply with the single word OK.';

export async function testChatModel(chatModel: ChatModel): Promise<LlmTestResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const collected = await collectStream(chatModel, { request: { messages: [{ role: 'user', content: PROMPT }], temperature: 0, maxTokens: 16 } });
  if (collected.failure !== undefined) {
    const error = collected.failure.thrown;
    if (!(error instanceof ModelCallError)) throw error;
    return { ok: false, latency_ms: elapsed(), model: chatModel.model, error_class: error.errorClass, message: error.message };
  }
  const answer = collected.text;
  const latency = elapsed();
  const shown = answer.trim().replace(/\s+/g, ' ');
  const said = shown === '' ? 'with no text' : `“${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}”`;
  return { ok: true, latency_ms: latency, model: chatModel.model, error_class: null, message: `The model answered in ${latency} ms ${said}` };
}

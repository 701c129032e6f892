// An ask in OpenAI's words: a chat completion, or its chunks as Server-Sent Events ending with
// `data: [DONE]`. The answer is the agent's, with its corpora, tools and guardrails, recorded as an
// agent response in a thread of its own (the OpenAI protocol carries the conversation in each request).
import type { FastifyReply } from 'fastify';
import { now } from '../../clock.js';
import type { Actor } from '../auth/actor.js';
import type { AgentResponseView } from '../chat/responses.schemas.js';
import { answerAsJson, clientGone } from '../runtime/ask-replies.js';
import type { AskService } from '../runtime/ask.service.js';
import { EventStreamWriter, sendEventStream } from '../runtime/event-stream.js';
import { openAiError } from './openai-errors.js';
import type { OpenAiQuestion } from './openai-conversation.js';
import { unixSeconds } from './openai-models.js';
import type { ChatCompletion, ChatCompletionChunk } from './openai.schemas.js';

export interface CompletionRequest {
  actor: Actor;
  agentId: number;
  /** The model as the client named it, echoed in every answer. */
  model: string;
  question: OpenAiQuestion;
}

const completionId = (responseId: number) => `chatcmpl-${responseId}`;
const finishReason = (response: AgentResponseView) => (response.status === 'blocked' ? 'content_filter' : response.finish_reason === 'length' ? 'length' : 'stop');

function usageOf(response: AgentResponseView) {
  return { prompt_tokens: response.tokens.prompt, completion_tokens: response.tokens.completion, total_tokens: response.tokens.total };
}

/** The completion once the answer has ended; a failed model call throws its 502/504 (the response is recorded). */
export async function completion(asks: AskService, request: CompletionRequest, reply: FastifyReply): Promise<ChatCompletion> {
  const response = await answerAsJson(asks, request.actor, request.agentId, request.question, reply);
  return {
    id: completionId(response.id),
    object: 'chat.completion',
    created: unixSeconds(response.created_on),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content: response.answer, refusal: null }, finish_reason: finishReason(response), logprobs: null }],
    usage: usageOf(response),
    agent_response_id: response.id,
    citations: response.citations,
  };
}

/** Streams the completion's chunks; errors of the ask itself (404, 409, 400) are thrown before the stream begins. */
export async function completionChunks(asks: AskService, request: CompletionRequest, includeUsage: boolean, reply: FastifyReply) {
  const prepared = await asks.prepare(request.actor, request.agentId, request.question);
  const events = new EventStreamWriter();
  let head = { id: '', created: unixSeconds(now()), model: request.model };
  const chunk = (fields: Partial<ChatCompletionChunk> & Pick<ChatCompletionChunk, 'choices'>): ChatCompletionChunk => ({ ...head, object: 'chat.completion.chunk', ...fields });
  const listener = {
    created: ({ id }: { id: number }) => {
      head = { ...head, id: completionId(id) };
      events.sendData(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }] }));
    },
    delta: (text: string) => events.sendData(chunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: null, logprobs: null }] })),
  };
  asks
    .answer(request.actor, prepared, listener, clientGone(reply))
    .then(({ response, upstreamError }) => {
      if (upstreamError) {
        events.sendData(openAiError(upstreamError.status, upstreamError.code, upstreamError.message));
        return;
      }
      if (response.status === 'failed') return;
      const last = chunk({ choices: [{ index: 0, delta: {}, finish_reason: finishReason(response), logprobs: null }], agent_response_id: response.id, citations: response.citations });
      events.sendData(last);
      if (includeUsage) events.sendData(chunk({ choices: [], usage: usageOf(response) }));
      events.sendData('[DONE]');
    })
    .catch((error: unknown) => {
      reply.log.error({ err: error }, 'chat completion failed while streaming');
      events.sendData(openAiError(500, 'internal', 'The server failed while answering; the request id finds it in the log'));
    })
    .finally(() => events.end());
  return sendEventStream(reply, events);
}

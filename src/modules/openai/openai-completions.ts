// An ask in OpenAI's words: a chat completion, or its chunks as Server-Sent Events ending with
// `data: [DONE]` (openai.presenter.ts writes both). The answer is the agent's, with its corpora,
// tools and guardrails, recorded as an agent response in a thread of its own (the OpenAI protocol
// carries the conversation in each request).
import type { FastifyReply } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { answerWhole, clientGone } from '../runtime/ask-replies.js';
import type { AskInput, AskService } from '../runtime/ask.service.js';
import { BadRequest } from '../../errors.js';
import { EventStreamWriter, sendEventStream } from '../../http/server-sent-events.js';
import { clientAskOf } from './openai-client-tools.js';
import { chatMessagesOf, questionOf } from './openai-conversation.js';
import { openAiError } from './openai-errors.js';
import { CompletionChunks, presentCompletion } from './openai.presenter.js';
import type { ChatCompletion, ChatCompletionInput } from './openai.schemas.js';

export interface CompletionRequest {
  actor: Actor;
  agentId: number;
  /** The model as the client named it, echoed in every answer. */
  model: string;
  /** The question, the conversation, and what the client brought (its tools, a JSON answer). */
  ask: AskInput;
}

/** The ask a chat completion request makes: the question, the conversation, the client's tools and answer format. */
export function completionAskOf(body: ChatCompletionInput): AskInput {
  const legacy = ['functions', 'function_call'].find((field) => field in body);
  if (legacy) throw new BadRequest(`${legacy} is not supported: give functions as tools (type function)`, [{ pointer: `/body/${legacy}`, message: 'use tools and tool_choice' }]);
  const client = clientAskOf({
    tools: body.tools?.map((tool) => ({ type: tool.type, ...tool.function })),
    toolChoice: typeof body.tool_choice === 'object' ? { type: body.tool_choice.type, name: body.tool_choice.function?.name } : body.tool_choice,
    format: body.response_format && { type: body.response_format.type, ...body.response_format.json_schema },
    maxTokens: body.max_completion_tokens ?? body.max_tokens,
    fields: { tools: '/body/tools', toolChoice: '/body/tool_choice', responseFormat: '/body/response_format' },
  });
  const question = questionOf(chatMessagesOf(body.messages), '/body/messages');
  return { query: question.query, turns: question.turns, continuation: question.continuation, client };
}

/** The completion once the answer has ended; a failed model call throws its 502/504 (the response is recorded). */
export async function completion(asks: AskService, request: CompletionRequest, reply: FastifyReply): Promise<ChatCompletion> {
  return presentCompletion(await answerWhole(asks, request.actor, request.agentId, request.ask, reply), request.model);
}

/** Streams the completion's chunks; errors of the ask itself (404, 409, 400) are thrown before the stream begins. */
export async function completionChunks(asks: AskService, request: CompletionRequest, includeUsage: boolean, reply: FastifyReply) {
  const prepared = await asks.prepare(request.actor, request.agentId, request.ask);
  const events = new EventStreamWriter();
  const chunks = new CompletionChunks(request.model);
  const listener = {
    created: ({ id }: { id: number }) => events.sendData(chunks.opened(id)),
    delta: (text: string) => events.sendData(chunks.text(text)),
  };
  asks
    .answer(request.actor, prepared, listener, clientGone(reply))
    .then(({ answer, upstreamError }) => {
      if (upstreamError) {
        events.sendData(openAiError(upstreamError.status, upstreamError.code, upstreamError.message));
        return;
      }
      if (answer.status === 'failed') return;
      const toolCalls = chunks.toolCalls(answer);
      if (toolCalls) events.sendData(toolCalls);
      events.sendData(chunks.finished(answer));
      if (includeUsage) events.sendData(chunks.usage(answer));
      events.sendData('[DONE]');
    })
    .catch((error: unknown) => {
      reply.log.error({ err: error }, 'chat completion failed while streaming');
      events.sendData(openAiError(500, 'internal', 'The server failed while answering; the request id finds it in the log'));
    })
    .finally(() => events.end());
  return sendEventStream(reply, events);
}

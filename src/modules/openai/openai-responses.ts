// An ask in the Responses API's words (API.md §9): the same asking pipeline as chat completions, with
// OpenAI's response object, or its events as Server-Sent Events (openai-responses-stream.ts).
// previous_response_id names an agent response of the caller's (resp_{id}): the answer continues its
// thread with the conversation up to it, and is recorded in that thread. A response that ended with
// calls of the client's tools is continued by their results (function_call_output items).
import type { FastifyReply } from 'fastify';
import { now } from '../../clock.js';
import { AppError, BadRequest } from '../../errors.js';
import { EventStreamWriter, sendEventStream } from '../../http/server-sent-events.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { RecordedAnswer } from '../runtime/answer.js';
import { answerWhole, clientGone } from '../runtime/ask-replies.js';
import type { AskInput, AskService } from '../runtime/ask.service.js';
import { clientAskOf } from './openai-client-tools.js';
import { questionOf, type OpenAiMessage } from './openai-conversation.js';
import { unixSeconds } from './openai-models.js';
import { clientCallsOf } from './openai.presenter.js';
import { refuseUnsupported, responsesMessagesOf } from './openai-responses-input.js';
import { presentResponse, type ResponseEcho } from './openai-responses.presenter.js';
import { ResponseEvents } from './openai-responses-stream.js';
import type { ResponseObject, ResponsesInput } from './openai-responses.schemas.js';

export interface ResponseRequest {
  actor: Actor;
  agentId: number;
  ask: AskInput;
  echo: ResponseEcho;
}

const RESPONSE_ID = /^resp_(\d{1,15})$/;

const unknownResponse = (id: string) => new AppError(404, 'not_found', `Response ${id} not found`, [{ pointer: '/body/previous_response_id', message: 'names no response of yours' }]);

/** The response previous_response_id names: one of the caller's own, with the same agent. */
async function previousResponse(store: UnitOfWork, actor: Actor, agentId: number, id: string): Promise<RecordedAnswer> {
  const match = RESPONSE_ID.exec(id);
  const found = match ? await store.repos.responses.find(actor.organizationId, Number(match[1])) : undefined;
  // Another person's response, even one the caller may read in the chat logs, is not a conversation to continue.
  if (!found || found.askedBy.userId !== actor.userId) throw unknownResponse(id);
  if (found.agentId !== agentId) {
    throw new BadRequest(`Response ${id} was answered by another agent: continue it with that agent’s model`, [{ pointer: '/body/previous_response_id', message: 'is another agent’s' }]);
  }
  return found;
}

/** A response that ended with calls of the client's tools: its question and calls, which the input's function_call_output items answer. */
function pendingCalls(previous: RecordedAnswer): OpenAiMessage[] {
  const calls = clientCallsOf(previous);
  if (calls.length === 0 || previous.finishReason !== 'tool_calls') return [];
  const pointer = '/body/previous_response_id';
  return [
    { role: 'user', text: previous.query, pointer },
    { role: 'assistant', text: previous.text, toolCalls: calls.map((call) => ({ id: call.id, name: call.name, arguments: call.input })), pointer },
  ];
}

/** The ask a Responses API request makes of the agent, and what its answers echo. */
export async function responseRequestOf(store: UnitOfWork, actor: Actor, agentId: number, body: ResponsesInput & Record<string, unknown>): Promise<ResponseRequest> {
  refuseUnsupported(body);
  const client = clientAskOf({
    tools: body.tools?.map((tool) => ({ type: tool.type, name: tool.name, description: tool.description ?? undefined, parameters: tool.parameters })),
    toolChoice: body.tool_choice,
    format: body.text?.format,
    maxTokens: body.max_output_tokens,
    fields: { tools: '/body/tools', toolChoice: '/body/tool_choice', responseFormat: '/body/text/format' },
  });
  const previous = body.previous_response_id ? await previousResponse(store, actor, agentId, body.previous_response_id) : undefined;
  const question = questionOf([...(previous ? pendingCalls(previous) : []), ...responsesMessagesOf(body.input)], '/body/input');
  return {
    actor,
    agentId,
    ask: {
      query: question.query,
      turns: question.turns,
      continuation: question.continuation,
      client,
      ...(previous ? { thread_id: previous.threadId, throughResponseId: previous.id } : {}),
    },
    echo: {
      model: body.model,
      previousResponseId: body.previous_response_id ?? null,
      tools: body.tools ?? [],
      toolChoice: body.tool_choice ?? 'auto',
      format: body.text?.format ?? { type: 'text' },
      temperature: body.temperature ?? null,
      topP: body.top_p ?? null,
      maxOutputTokens: body.max_output_tokens ?? null,
      metadata: body.metadata ?? {},
    },
  };
}

/** The response object once the answer has ended; a failed model call throws its 502/504 (the response is recorded). */
export async function respond(asks: AskService, request: ResponseRequest, reply: FastifyReply): Promise<ResponseObject> {
  return presentResponse(await answerWhole(asks, request.actor, request.agentId, request.ask, reply), request.echo);
}

/** Streams the response's events; errors of the ask itself (404, 409, 400) are thrown before the stream begins. */
export async function respondAsEvents(asks: AskService, request: ResponseRequest, reply: FastifyReply) {
  const prepared = await asks.prepare(request.actor, request.agentId, request.ask);
  const events = new EventStreamWriter();
  const stream = new ResponseEvents(events, request.echo, unixSeconds(now()));
  const listener = { created: ({ id }: { id: number }) => stream.created(id), delta: (text: string) => stream.delta(text) };
  asks
    .answer(request.actor, prepared, listener, clientGone(reply))
    .then(({ answer, upstreamError }) => {
      if (upstreamError) stream.failed(answer, { code: upstreamError.code, message: upstreamError.message });
      else if (answer.status !== 'failed') stream.finished(answer);
    })
    .catch((error: unknown) => {
      reply.log.error({ err: error }, 'response failed while streaming');
      stream.error('internal', 'The server failed while answering; the request id finds it in the log');
    })
    .finally(() => events.end());
  return sendEventStream(reply, events);
}

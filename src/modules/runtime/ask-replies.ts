// How an ask reaches the client: one JSON answer (both generations) or a stream of events. Either
// way, a client that goes away before the answer is written cancels the model call.
import type { FastifyReply } from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { AgentResponseView } from '../chat/responses.schemas.js';
import type { AskInput, AskService } from './ask.service.js';
import { EventStreamWriter, sendEventStream } from '../../http/server-sent-events.js';

/** Aborted when the connection closes before the reply has been written whole. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** The response once the answer has ended; a failed model call throws its 502/504 (the response is recorded). */
export async function answerAsJson(asks: AskService, actor: Actor, agentId: number, input: AskInput, reply: FastifyReply): Promise<AgentResponseView> {
  const prepared = await asks.prepare(actor, agentId, input);
  const { response, upstreamError } = await asks.answer(actor, prepared, {}, clientGone(reply));
  if (upstreamError) throw upstreamError;
  return response;
}

/** Starts the answer and sends its events; errors of the ask itself (404, 409, 400) are thrown before the stream begins. */
export async function answerAsEvents(asks: AskService, actor: Actor, agentId: number, input: AskInput, reply: FastifyReply) {
  const prepared = await asks.prepare(actor, agentId, input);
  const events = new EventStreamWriter();
  const listener = {
    created: (ids: { id: number; thread_id: number }) => events.send('response.created', ids),
    citations: (candidates: unknown[]) => events.send('citations', candidates),
    delta: (text: string) => events.send('delta', { text }),
    toolCall: (record: unknown) => events.send('tool_call', record),
    guardrail: (action: unknown) => events.send('guardrail', action),
  };
  asks
    .answer(actor, prepared, listener, clientGone(reply))
    .then(({ response, upstreamError }) => {
      if (upstreamError) events.send('error', { code: upstreamError.code, message: upstreamError.message, response_id: response.id });
      else if (response.status !== 'failed') events.send('response.completed', response);
    })
    .catch((error: unknown) => {
      reply.log.error({ err: error }, 'ask failed while streaming');
      events.send('error', { code: 'internal', message: 'The server failed while answering; the request id finds it in the log' });
    })
    .finally(() => events.end());
  return sendEventStream(reply, events);
}

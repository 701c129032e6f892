// A JSON-RPC call of the A2A protocol, answered from a Fastify route: the SDK's transport-agnostic
// handler (A2A 1.0, or its 0.3 compatibility handler when the request names no A2A-Version or 0.3,
// as the SDK's own Express handler decides) takes the parsed body, and its answer is written as one
// JSON-RPC object, or as Server-Sent Events through the server's event-stream writer. Every answer is
// 200, errors included (the JSON-RPC convention): the HTTP status is for what the route refused
// before the protocol began (401, 403, 404). A streamed call whose first event fails is answered as
// a JSON-RPC error, not as a stream.
import type { FastifyReply } from 'fastify';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, validateVersion, type ServerCallContext } from '@a2a-js/sdk/server';
import { EventStreamWriter, sendEventStream } from '../../http/server-sent-events.js';
import type { PlatformRequestHandler } from './a2a-request-handler.js';

type JsonRpcAnswer = { jsonrpc: string; id: string | number | null; result?: unknown; error?: unknown };

const requestIdOf = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
};

const isStream = (answer: unknown): answer is AsyncGenerator<JsonRpcAnswer, void, undefined> =>
  typeof (answer as AsyncGenerator | null)?.[Symbol.asyncIterator] === 'function';

const sendJson = (reply: FastifyReply, answer: JsonRpcAnswer) => reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(answer));

export async function answerJsonRpc(handler: PlatformRequestHandler, body: unknown, context: ServerCallContext, reply: FastifyReply) {
  const legacy = context.requestedVersion === A2A_LEGACY_PROTOCOL_VERSION;
  const errorOf = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
  const failed = (error: unknown): JsonRpcAnswer => ({ jsonrpc: '2.0', id: requestIdOf(body), error: errorOf(error) });
  try {
    validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC');
  } catch (error) {
    return sendJson(reply, failed(error));
  }
  const transport = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
  const answer = await transport.handle(body as Record<string, unknown>, context);
  if (!isStream(answer)) return sendJson(reply, answer);

  const iterator = answer[Symbol.asyncIterator]();
  let first: IteratorResult<JsonRpcAnswer, void>;
  try {
    first = await iterator.next();
  } catch (error) {
    return sendJson(reply, failed(error));
  }
  const events = new EventStreamWriter();
  void (async () => {
    try {
      for (let next = first; !next.done; next = await iterator.next()) events.sendData(next.value);
    } catch (error) {
      events.send('error', failed(error));
    } finally {
      events.end();
    }
  })();
  return sendEventStream(reply, events);
}

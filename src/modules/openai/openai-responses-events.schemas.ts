// The events of a Responses API answer with stream: true, as the OpenAPI document describes them
// (src/http/event-streams.ts). Documentation: openai-responses-stream.ts writes them.
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { StreamEvent, StreamEventUnion, eventStreamResponse } from '../../http/event-streams.js';
import { OutputItem, ResponseObjectSchema } from './openai-responses.schemas.js';

const OutputText = Type.Object({
  type: Type.Literal('output_text'),
  text: Type.String(),
  annotations: Type.Array(Type.Object({ type: Type.Literal('file_citation'), file_id: Type.String(), filename: Type.String(), index: Type.Integer() })),
  logprobs: Type.Array(Type.Unknown(), { maxItems: 0 }),
});

/** One event: its name, and data that repeats the name as `type` with the event's sequence_number. */
function responseEvent<P extends TProperties>(title: string, name: string, properties: P, description: string): TObject {
  return StreamEvent(title, name, Type.Object({ type: Type.Literal(name), sequence_number: Type.Integer({ minimum: 0 }), ...properties }), { id: true, description });
}

const inItem = { item_id: Type.String(), output_index: Type.Integer({ minimum: 0 }) };
const inPart = { ...inItem, content_index: Type.Integer({ minimum: 0 }) };

const ResponseStreamEventSchema = StreamEventUnion(
  'OpenAiResponseStreamEvent',
  [
    responseEvent('OpenAiResponseCreatedEvent', 'response.created', { response: ResponseObjectSchema }, 'First: the question is recorded, the response in progress'),
    responseEvent('OpenAiResponseInProgressEvent', 'response.in_progress', { response: ResponseObjectSchema }, 'Second: the answer is being written'),
    responseEvent('OpenAiResponseOutputItemAddedEvent', 'response.output_item.added', { output_index: Type.Integer({ minimum: 0 }), item: OutputItem }, 'An output item begins'),
    responseEvent('OpenAiResponseContentPartAddedEvent', 'response.content_part.added', { ...inPart, part: OutputText }, 'The message’s text part begins'),
    responseEvent(
      'OpenAiResponseOutputTextDeltaEvent',
      'response.output_text.delta',
      { ...inPart, delta: Type.String(), logprobs: Type.Array(Type.Unknown()) },
      'A piece of the answer, after the output guardrails: the deltas joined are the text',
    ),
    responseEvent('OpenAiResponseOutputTextDoneEvent', 'response.output_text.done', { ...inPart, text: Type.String(), logprobs: Type.Array(Type.Unknown()) }, 'The whole text'),
    responseEvent('OpenAiResponseContentPartDoneEvent', 'response.content_part.done', { ...inPart, part: OutputText }, 'The text part, with its annotations'),
    responseEvent(
      'OpenAiResponseFunctionCallArgumentsDeltaEvent',
      'response.function_call_arguments.delta',
      { ...inItem, delta: Type.String() },
      'The arguments of a call of the client’s tools (whole, in one delta)',
    ),
    responseEvent(
      'OpenAiResponseFunctionCallArgumentsDoneEvent',
      'response.function_call_arguments.done',
      { ...inItem, name: Type.String(), arguments: Type.String() },
      'The arguments of the call, whole',
    ),
    responseEvent('OpenAiResponseOutputItemDoneEvent', 'response.output_item.done', { output_index: Type.Integer({ minimum: 0 }), item: OutputItem }, 'An output item, whole'),
    responseEvent('OpenAiResponseCompletedEvent', 'response.completed', { response: ResponseObjectSchema }, 'Last: the whole response'),
    responseEvent('OpenAiResponseIncompleteEvent', 'response.incomplete', { response: ResponseObjectSchema }, 'Last, in place of response.completed: the answer was cut or blocked'),
    responseEvent('OpenAiResponseFailedEvent', 'response.failed', { response: ResponseObjectSchema }, 'Last, when the model failed: the response with its error (recorded as failed)'),
    responseEvent('OpenAiResponseErrorEvent', 'error', { code: Type.String(), message: Type.String(), param: Type.Null() }, 'Last, on a fault of the server'),
  ],
  'One event of a Responses API stream, told apart by its name (event), which its data repeats as type',
);

const WIRE =
  'id: 1\nevent: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_12","object":"response","status":"in_progress",…}}\n\n' +
  'id: 2\nevent: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{…}}\n\n' +
  'id: 3\nevent: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"type":"message","id":"msg_12","role":"assistant","status":"in_progress","content":[]}}\n\n' +
  'id: 4\nevent: response.content_part.added\ndata: {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_12","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[],"logprobs":[]}}\n\n' +
  'id: 5\nevent: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_12","output_index":0,"content_index":0,"delta":"Returns are accepted within 30 days [1].","logprobs":[]}\n\n' +
  'id: 6\nevent: response.output_text.done\ndata: {…,"text":"Returns are accepted within 30 days [1]."}\n\n' +
  'id: 7\nevent: response.content_part.done\ndata: {…,"part":{"type":"output_text","text":"…","annotations":[{"type":"file_citation","file_id":"document-42","filename":"handbook.txt","index":35}],"logprobs":[]}}\n\n' +
  'id: 8\nevent: response.output_item.done\ndata: {…,"item":{"type":"message","id":"msg_12","status":"completed",…}}\n\n' +
  'id: 9\nevent: response.completed\ndata: {"type":"response.completed","sequence_number":8,"response":{"id":"resp_12","status":"completed",…}}\n\n';

/** The 200 answer of a Responses API request with stream: true. */
export const responseEventsResponse = eventStreamResponse(
  'With stream: true, Server-Sent Events with OpenAI’s event names, each event’s data carrying its type and sequence_number: response.created, ' +
    'response.in_progress, the message item’s events as the text is written, function_call items for calls of the client’s tools, then response.completed ' +
    '(response.incomplete when cut or blocked), or response.failed when the model fails.',
  ResponseStreamEventSchema,
  WIRE,
  {
    delta: {
      event: 'response.output_text.delta',
      id: '5',
      data: { type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_12', output_index: 0, content_index: 0, delta: 'Returns are accepted within 30 days.', logprobs: [] },
    },
    error: { event: 'error', id: '6', data: { type: 'error', sequence_number: 5, code: 'internal', message: 'The server failed while answering; the request id finds it in the log', param: null } },
  },
);

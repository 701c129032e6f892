// The server's event streams, typed: each event decoded as the OpenAPI document describes it (its
// name, its id, its data parsed from JSON; docs/api.md, "Event streams"), as a discriminated union
// of the generated components, so that `if (event.event === 'delta') event.data.text` needs no cast.
import { readEventStream } from './event-stream.js';
import type { components } from './openapi.js';

type Schemas = components['schemas'];

/** An event of an ask with stream: true (POST /api/v2/agents/{agent_id}/responses). */
export type AskStreamEvent = Schemas['AskStreamEvent'];
/** An event of a corpus's document progress (GET /api/v2/corpora/{corpus_id}/events). */
export type CorpusStreamEvent = Schemas['CorpusStreamEvent'];
/** An event of an OpenAI-compatible chat completion with stream: true (POST /api/v2/openai/chat/completions). */
export type ChatCompletionStreamEvent = Schemas['OpenAiChatCompletionStreamEvent'];

/**
 * Where the events are read from: the Response of an operation called with `parseAs: 'stream'`
 * (openapi-fetch's `response`), or its body.
 */
export type EventStreamSource = Response | ReadableStream<Uint8Array>;

/** Every event name of a stream: the compiler says when the document adds a name that a list lacks. */
type EventNames<E extends { event: string }> = Record<E['event'], true>;

const ASK_EVENTS: EventNames<AskStreamEvent> = {
  'response.created': true,
  citations: true,
  delta: true,
  tool_call: true,
  guardrail: true,
  'response.completed': true,
  error: true,
};
const CORPUS_EVENTS: EventNames<CorpusStreamEvent> = { document: true };
const CHAT_COMPLETION_EVENTS: EventNames<ChatCompletionStreamEvent> = { message: true };

/** The events of an ask's answer, until it ends: response.created, citations, delta…, then response.completed or error. */
export function readAskEvents(source: EventStreamSource, signal?: AbortSignal): AsyncGenerator<AskStreamEvent> {
  return readTypedEvents(source, ASK_EVENTS, signal);
}

/** The step changes of a corpus's documents, for as long as the stream stays open (end it with `signal`). */
export function readCorpusEvents(source: EventStreamSource, signal?: AbortSignal): AsyncGenerator<CorpusStreamEvent> {
  return readTypedEvents(source, CORPUS_EVENTS, signal);
}

/** The chunks of a chat completion, then `[DONE]` (data is the text [DONE]), or an OpenAI error object. */
export function readChatCompletionEvents(source: EventStreamSource, signal?: AbortSignal): AsyncGenerator<ChatCompletionStreamEvent> {
  return readTypedEvents(source, CHAT_COMPLETION_EVENTS, signal);
}

async function* readTypedEvents<E extends { event: string }>(source: EventStreamSource, names: EventNames<E>, signal: AbortSignal | undefined): AsyncGenerator<E> {
  for await (const event of readEventStream(bodyOf(source), signal)) {
    // A name this client does not know is a newer server's event: skipped, not mistyped.
    if (!Object.hasOwn(names, event.event)) continue;
    const decoded = { event: event.event, data: parseData(event.data), ...(event.id === undefined ? {} : { id: event.id }) };
    // The one cast: an event of a known name is what the document says it is. It is not validated
    // again here; the server's tests check every event it writes against the document.
    yield decoded as unknown as E;
  }
}

/** Data is JSON, but for text the document says is not (OpenAI's [DONE]), which stays as it is. */
function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

function bodyOf(source: EventStreamSource): ReadableStream<Uint8Array> {
  if ('getReader' in source) return source;
  const type = source.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream')) throw new Error(`Not an event stream: HTTP ${source.status}, ${type || 'no content type'}`);
  if (source.bodyUsed || source.body === null) throw new Error('The event stream was already read: call the operation with parseAs: "stream"');
  return source.body;
}

// What the fake OpenAI and Anthropic servers share: a loopback listener, the scripting of the next
// answers (fail, stall, cut, call a tool), the recording of every request, and the pacing of a
// streamed answer. Each fake supplies its protocol as a FakeProtocol (fake-openai.ts, fake-anthropic.ts).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { startListener, type Listener } from './listeners.js';

export interface RecordedRequest {
  method: string;
  /** The path with its query, e.g. /openai/deployments/gpt/chat/completions?api-version=2024-10-21 */
  url: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, parsed; undefined when there was none or it was not JSON. */
  body: any;
}

export interface ToolCallScript {
  name: string;
  arguments: Record<string, unknown>;
}

/** What one answer is made of, as the protocol writes it. */
export interface AnswerPlan {
  model: string;
  chunks: string[];
  /** The counts to send; undefined when usage is off (or, in a stream, not asked for). */
  usage: { prompt: number; completion: number } | undefined;
  /** The counts configured, for protocols that always send them. */
  tokens: { prompt: number; completion: number };
  /** The call asked for, numbered within the server's life so that each call has its own id. */
  toolCall: (ToolCallScript & { number: number }) | undefined;
}

export interface FakeProtocol {
  /** Whether the request is a chat call (the others: `answerOther`). */
  isChat(request: IncomingMessage): boolean;
  /** Whether the chat call asks for a stream, and whether it asks for usage in it. */
  streamOf(body: any): { stream: boolean; includeUsage: boolean };
  /** The events of a streamed answer, in order; `chunkEvents[i]` carries chunks[i]. */
  streamEvents(plan: AnswerPlan): { head: string[]; chunkEvents: string[]; tail: string[] };
  wholeAnswer(plan: AnswerPlan): unknown;
  errorBody(status: number, message: string): unknown;
  /** Anything else (/v1/models…); answers 404 when it returns false. */
  answerOther(request: IncomingMessage, response: ServerResponse): boolean;
}

export interface Stall {
  /** Resolves when a request reaches the stall. */
  arrived: Promise<void>;
  /** Resolves when the client closes the connection while stalled. */
  disconnected: Promise<void>;
  /** Lets the answer go on. */
  release(): void;
}

type Script =
  | { kind: 'fail'; status: number; retryAfter: string | undefined; message: string }
  | { kind: 'stall'; afterChunks: number | undefined; stall: Stall & { resolveArrived(): void; resolveDisconnected(): void; released: Promise<void> } }
  | { kind: 'cut'; afterChunks: number }
  | { kind: 'malformed' }
  | { kind: 'toolCall'; toolCall: ToolCallScript }
  | { kind: 'answer'; text: string };

export interface FakeLlmServer {
  /** http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** 127.0.0.1:<port>, for EGRESS_ALLOWED_HOSTS */
  host: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** The chat requests only. */
  chatRequests(): RecordedRequest[];
  /** The text answered; streamed in `chunks` when set, else a word (with its space) a chunk. */
  answer: string;
  chunks: string[] | undefined;
  /** Whether answers count tokens (in a stream: when the client asks for it, as OpenAI does). */
  usage: boolean;
  tokens: { prompt: number; completion: number };
  /** The next `times` chat requests fail with this status (429 with Retry-After when given). */
  failNext(status: number, options?: { times?: number; retryAfter?: string; message?: string }): void;
  /** The next chat request is held: before anything is sent, or after `afterChunks` chunks of a stream. */
  stallNext(options?: { afterChunks?: number }): Stall;
  /** The next streamed answer stops after `afterChunks` chunks: the connection is dropped. */
  cutNext(afterChunks: number): void;
  /** The next streamed answer carries an event that is not JSON, then goes on to the end. */
  malformedNext(): void;
  /** The next answer asks for a tool call instead of giving text. */
  toolCallNext(name: string, args: Record<string, unknown>): void;
  /** The next answer is this text instead of `answer` (queued: several calls answer in turn). */
  answerNext(text: string): void;
  listener: Listener;
  close(): Promise<void>;
}

export const FAKE_LLM_KEY = 'sk-fake-llm-0123456789abcdefghijklmnop';

function splitIntoChunks(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

function makeStall(): Stall & { resolveArrived(): void; resolveDisconnected(): void; released: Promise<void> } {
  let resolveArrived!: () => void;
  let resolveDisconnected!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (resolveArrived = resolve));
  const disconnected = new Promise<void>((resolve) => (resolveDisconnected = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { arrived, disconnected, released, release, resolveArrived, resolveDisconnected };
}

export async function startFakeLlmServer(protocol: FakeProtocol): Promise<FakeLlmServer> {
  const queue: Script[] = [];
  let toolCallsMade = 0;
  const held = new Set<() => void>();

  async function answerChat(request: IncomingMessage, response: ServerResponse, body: any): Promise<void> {
    const script = queue.shift();
    const { stream, includeUsage } = protocol.streamOf(body);
    const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
    if (script?.kind === 'fail') {
      response.writeHead(script.status, { 'content-type': 'application/json', ...(script.retryAfter === undefined ? {} : { 'retry-after': script.retryAfter }) });
      response.end(JSON.stringify(protocol.errorBody(script.status, script.message)));
      return;
    }
    const hold = async (stall: Script & { kind: 'stall' }) => {
      stall.stall.resolveArrived();
      void closed.then(() => {
        if (!response.writableFinished) stall.stall.resolveDisconnected();
      });
      held.add(stall.stall.release);
      await Promise.race([stall.stall.released, closed]);
      held.delete(stall.stall.release);
    };
    if (script?.kind === 'stall' && script.afterChunks === undefined) {
      await hold(script);
      if (response.destroyed) return;
    }
    const plan: AnswerPlan = {
      model: typeof body?.model === 'string' ? body.model : 'unknown',
      chunks: script?.kind === 'answer' ? splitIntoChunks(script.text) : (server.chunks ?? splitIntoChunks(server.answer)),
      usage: server.usage && (!stream || includeUsage) ? server.tokens : undefined,
      tokens: server.tokens,
      toolCall: script?.kind === 'toolCall' ? { ...script.toolCall, number: ++toolCallsMade } : undefined,
    };
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(protocol.wholeAnswer(plan)));
      return;
    }
    const events = protocol.streamEvents(plan);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of events.head) response.write(event);
    for (const [index, event] of events.chunkEvents.entries()) {
      if (script?.kind === 'cut' && index === script.afterChunks) {
        // Lets the chunks written so far reach the client before the connection drops.
        await new Promise<void>((resolve) => response.write('', () => resolve()));
        response.destroy();
        return;
      }
      if (script?.kind === 'stall' && index === script.afterChunks) {
        await hold(script);
        if (response.destroyed) return;
      }
      response.write(script?.kind === 'malformed' && index === 0 ? 'data: {"not json\n\n' : event);
    }
    for (const event of events.tail) response.write(event);
    response.end();
  }

  const listener = await startListener((request, response, raw) => {
    let body: any;
    try {
      body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      body = undefined;
    }
    server.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    if (request.method === 'POST' && protocol.isChat(request)) {
      void answerChat(request, response, body);
      return;
    }
    if (!protocol.answerOther(request, response)) response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(protocol.errorBody(404, 'Not found')));
  });
  const host = `127.0.0.1:${listener.port}`;
  const server: FakeLlmServer = {
    baseUrl: `http://${host}/v1`,
    origin: `http://${host}`,
    host,
    requests: [],
    chatRequests: () => server.requests.filter((recorded) => recorded.method === 'POST' && recorded.body !== undefined && 'messages' in recorded.body),
    answer: 'Hello from the fake model.',
    chunks: undefined,
    usage: true,
    tokens: { prompt: 11, completion: 7 },
    failNext(status, options = {}) {
      for (let i = 0; i < (options.times ?? 1); i++) {
        queue.push({ kind: 'fail', status, retryAfter: options.retryAfter, message: options.message ?? `Scripted failure ${status}` });
      }
    },
    stallNext(options = {}) {
      const stall = makeStall();
      queue.push({ kind: 'stall', afterChunks: options.afterChunks, stall });
      return stall;
    },
    cutNext: (afterChunks) => void queue.push({ kind: 'cut', afterChunks }),
    malformedNext: () => void queue.push({ kind: 'malformed' }),
    toolCallNext: (name, args) => void queue.push({ kind: 'toolCall', toolCall: { name, arguments: args } }),
    answerNext: (text) => void queue.push({ kind: 'answer', text }),
    listener,
    close: async () => {
      for (const release of held) release();
      await listener.close();
    },
  };
  return server;
}

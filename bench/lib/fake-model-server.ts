// A minimal OpenAI-compatible model server for benchmarks, run in its own process (see
// fake-model-process.ts) so that the server under test and the load generator each reach it over
// loopback, as they would a local vLLM or Ollama:
//   POST …/chat/completions  whole, or streamed as Server-Sent Events when `stream: true` (usage in a
//                            last chunk when `stream_options.include_usage` is set; always when whole);
//   GET  …/models            the models, also the readiness probe;
//   GET  /bench/last-request the body of the last chat request, exactly as received, so that a suite
//                            can send the very request the server made straight to this process.
// The model name sets the pace: `instant` writes the whole answer at once; `paced-<ms>` writes one
// piece every <ms> milliseconds, like a model generating tokens, and `paced-<ms>x<n>` an answer n
// times as long; `ten-words` writes the fixed reply of ten words of TEN_WORD_PIECES at once (the
// answer of the speed aims figures, the peers' too). `tools-<n>` calls the first tool it is offered until the conversation holds n tool
// results (each call with new arguments), then answers; `long-word-<n>` answers one word of n
// characters and reports no usage; GET /bench/weather/<city> is a small JSON API
// for such tools to call. The answer cites passage [1], so
// that the asker can tell whether retrieval put a passage in the prompt (the marker is kept) or not
// (the marker is dropped). Run: FAKE_MODEL_PORT=<port> node --import tsx bench/lib/fake-model-server.ts
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** About 40 pieces, as a model would stream them (one word or punctuation mark each). */
export const ANSWER_PIECES = (
  'To send an invoice , open it from the Billing page , choose Send , and check the address : ' +
  'the customer receives it by e-mail with a link to pay online [1] . Paid invoices move to the Archive tab .'
)
  .split(' ')
  .map((piece, index) => (index === 0 ? piece : ` ${piece}`));

/**
 * Model `ten-words`: a fixed reply of ten words (and the passage marker), one piece a word or mark,
 * with no delay; the answer every figure of the speed aims' table was measured with, ours and the peers'.
 */
export const TEN_WORD_MODEL = 'ten-words';
export const TEN_WORD_PIECES = 'Open the invoice , choose Send , then confirm the customer’s address [1] .'
  .split(' ')
  .map((piece, index) => (index === 0 ? piece : ` ${piece}`));

const CREATED = 1_764_000_000;
const PACED = /^paced-(\d{1,4})(?:x(\d{1,2}))?$/;
/** `long-word-<n>`: one word of n characters, without usage (what the stall suite feeds the server). */
const LONG_WORD = /^long-word-(\d{1,8})$/;

interface ChatBody {
  model?: unknown;
  messages?: unknown;
  tools?: { function?: { name?: string } }[];
  stream?: unknown;
  stream_options?: { include_usage?: unknown };
}

/** How the model named answers: milliseconds between pieces (0 for `instant` and any other name) and the pieces. */
export function answerOf(model: string): { delayMs: number; pieces: string[] } {
  const longWord = LONG_WORD.exec(model);
  if (longWord) return { delayMs: 0, pieces: ['x'.repeat(Number(longWord[1]))] };
  if (model === TEN_WORD_MODEL) return { delayMs: 0, pieces: TEN_WORD_PIECES };
  const match = PACED.exec(model);
  if (!match) return { delayMs: 0, pieces: ANSWER_PIECES };
  const times = Number(match[2] ?? 1);
  return { delayMs: Number(match[1]), pieces: Array.from({ length: times }, () => ANSWER_PIECES).flat() };
}

function usageOf(body: ChatBody, pieces: string[]) {
  if (typeof body.model === 'string' && LONG_WORD.test(body.model)) return undefined;
  // A rough count (4 characters a token) is enough: the server takes the provider's figure as it is.
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  return { prompt_tokens: prompt, completion_tokens: pieces.length, total_tokens: prompt + pieces.length };
}

const chunk = (model: string, delta: Record<string, unknown>, finishReason: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

const TOOLS = /^tools-(\d{1,2})$/;

/** The call a `tools-<n>` model asks for next, or undefined when it has had its n results (or has no tools). */
export function toolCallOf(body: ChatBody, model: string): { id: string; type: 'function'; function: { name: string; arguments: string } } | undefined {
  const match = TOOLS.exec(model);
  const name = body.tools?.[0]?.function?.name;
  if (!match || name === undefined) return undefined;
  const results = Array.isArray(body.messages) ? body.messages.filter((message: { role?: unknown }) => message.role === 'tool').length : 0;
  if (results >= Number(match[1])) return undefined;
  return { id: `call_bench_${results + 1}`, type: 'function', function: { name, arguments: JSON.stringify({ city: `City ${results + 1}` }) } };
}

function callTool(body: ChatBody, model: string, call: NonNullable<ReturnType<typeof toolCallOf>>, response: ServerResponse): void {
  const usage = usageOf(body, []);
  if (body.stream !== true) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: CREATED,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.end(
    [
      chunk(model, { role: 'assistant', content: null, tool_calls: [{ index: 0, ...call }] }),
      chunk(model, {}, 'tool_calls'),
      ...(body.stream_options?.include_usage === true
        ? [`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage })}\n\n`]
        : []),
      'data: [DONE]\n\n',
    ].join(''),
  );
}

function answerWhole(body: ChatBody, model: string, response: ServerResponse): void {
  const { pieces } = answerOf(model);
  const text = pieces.join('');
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: usageOf(body, pieces),
    }),
  );
}

function answerStreamed(body: ChatBody, model: string, response: ServerResponse): void {
  const answer = answerOf(model);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const tail = [
    chunk(model, {}, 'stop'),
    ...(body.stream_options?.include_usage === true
      ? [`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: usageOf(body, answer.pieces) })}\n\n`]
      : []),
    'data: [DONE]\n\n',
  ];
  const pieces = [chunk(model, { role: 'assistant', content: '' }), ...answer.pieces.map((text) => chunk(model, { content: text }))];
  const delay = answer.delayMs;
  if (delay === 0) {
    response.end([...pieces, ...tail].join(''));
    return;
  }
  // Paced: the role chunk at once, then one piece per interval; stops when the caller goes away.
  let next = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer);
    if (next < pieces.length) return void response.write(pieces[next++]!);
    clearInterval(timer);
    response.end(tail.join(''));
  }, delay);
  response.write(pieces[next++]!);
  response.on('close', () => clearInterval(timer));
}

export function createFakeModelServer() {
  let lastRequest = '';
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]!;
    if (request.method === 'GET' && path.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ object: 'list', data: ['instant', TEN_WORD_MODEL, 'paced-20', 'paced-20x5'].map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'bench' })) }));
    }
    if (request.method === 'GET' && path.startsWith('/bench/weather/')) {
      const city = decodeURIComponent(path.slice('/bench/weather/'.length));
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ city, forecast: 'sunny', celsius: 21, wind_kmh: 12 }));
    }
    if (request.method === 'GET' && path === '/bench/last-request') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(lastRequest);
    }
    if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ error: { message: `No route ${request.method} ${path}`, type: 'invalid_request_error', code: null } }));
    }
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      lastRequest = Buffer.concat(parts).toString('utf8');
      let body: ChatBody;
      try {
        body = JSON.parse(lastRequest) as ChatBody;
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ error: { message: 'The body is not JSON', type: 'invalid_request_error', code: null } }));
      }
      const model = typeof body.model === 'string' ? body.model : 'instant';
      const call = toolCallOf(body, model);
      if (call !== undefined) callTool(body, model, call, response);
      else if (body.stream === true) answerStreamed(body, model, response);
      else answerWhole(body, model, response);
    });
  });
}

function main(): void {
  const port = Number(process.env.FAKE_MODEL_PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('FAKE_MODEL_PORT must be a port number');
  const server = createFakeModelServer();
  // Longer than any pause of a suite, so that a kept-alive connection is never closed under a request.
  server.keepAliveTimeout = 120_000;
  server.listen(port, '127.0.0.1');
  process.once('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

// Started as a program (not imported): serve.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();

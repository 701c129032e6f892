// A fake OpenAI-compatible chat server on loopback whose answers are as long as a test asks (10 MB
// and more), streamed or (without `stream: true`) whole as one JSON body, written piece by piece as
// the client reads them — never held whole — and without usage, as a provider that ignores max_tokens
// would answer. It tells how much of each answer it sent and whether the client let go of it before its end.
//   const fake = await startFakeEndlessOpenAi();    // fake.baseUrl, fake.host (for EGRESS_ALLOWED_HOSTS)
//   fake.answerCharacters = 10 * 1024 * 1024;       // length of the next answers
//   fake.finishReason = 'length';                   // what the last chunk says (default stop)
//   const sent = await fake.lastAnswer().ended;     // { characters, letGo } once the answer's stream ends
import type { ServerResponse } from 'node:http';
import { startListener } from './listeners.js';

const PIECE = 'All work and no play makes a very long answer indeed. ';

export interface StreamedAnswer {
  /** Whether the answer was asked for as a stream. */
  streamed: boolean;
  /** The request body, parsed. */
  body: any;
  /** Resolves once the stream ended: the characters of answer written, and whether the client left before the end. */
  ended: Promise<{ characters: number; letGo: boolean }>;
}

export interface FakeEndlessOpenAi {
  baseUrl: string;
  host: string;
  answerCharacters: number;
  finishReason: 'stop' | 'length';
  answers: StreamedAnswer[];
  lastAnswer(): StreamedAnswer;
  close(): Promise<void>;
}

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-endless',
  object: 'chat.completion.chunk',
  created: 1_764_000_000,
  model: 'fake-model',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

/** Writes `text`, waiting while the client's buffers are full; false once the client has gone. */
function written(response: ServerResponse, text: string): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  if (response.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const finish = (open: boolean) => {
      response.off('drain', onDrain);
      response.off('close', onClose);
      resolve(open && !response.destroyed);
    };
    response.once('drain', onDrain);
    response.once('close', onClose);
  });
}

async function streamAnswer(response: ServerResponse, characters: number, finishReason: string): Promise<{ characters: number; letGo: boolean }> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sent = 0;
  if (!(await written(response, sse(chunk({ role: 'assistant', content: '' }))))) return { characters: sent, letGo: true };
  while (sent < characters) {
    const piece = PIECE.slice(0, characters - sent);
    if (!(await written(response, sse(chunk({ content: piece }))))) return { characters: sent, letGo: true };
    sent += piece.length;
  }
  if (!(await written(response, sse(chunk({}, finishReason)) + 'data: [DONE]\n\n'))) return { characters: sent, letGo: true };
  await new Promise<void>((resolve) => response.end(resolve));
  return { characters: sent, letGo: false };
}

/** The answer whole: one chat.completion body whose content is written piece by piece (PIECE needs no JSON escape). */
async function wholeAnswer(response: ServerResponse, characters: number, finishReason: string): Promise<{ characters: number; letGo: boolean }> {
  response.writeHead(200, { 'content-type': 'application/json' });
  const head = JSON.stringify({ id: 'chatcmpl-endless', object: 'chat.completion', created: 1_764_000_000, model: 'fake-model', choices: [{ index: 0, message: { role: 'assistant', content: '' } }] });
  let sent = 0;
  if (!(await written(response, head.slice(0, head.indexOf('""}') + 1)))) return { characters: sent, letGo: true };
  while (sent < characters) {
    const piece = PIECE.slice(0, characters - sent);
    if (!(await written(response, piece))) return { characters: sent, letGo: true };
    sent += piece.length;
  }
  if (!(await written(response, `"},"finish_reason":"${finishReason}"}]}`))) return { characters: sent, letGo: true };
  await new Promise<void>((resolve) => response.end(resolve));
  return { characters: sent, letGo: false };
}

export async function startFakeEndlessOpenAi(): Promise<FakeEndlessOpenAi> {
  const listener = await startListener((_request, response, raw) => {
    const body = JSON.parse(raw.toString('utf8'));
    const streamed = body.stream === true;
    const answer = streamed ? streamAnswer : wholeAnswer;
    fake.answers.push({ streamed, body, ended: answer(response, fake.answerCharacters, fake.finishReason) });
  });
  const host = `127.0.0.1:${listener.port}`;
  const fake: FakeEndlessOpenAi = {
    baseUrl: `http://${host}/v1`,
    host,
    answerCharacters: 10 * 1024 * 1024,
    finishReason: 'stop',
    answers: [],
    lastAnswer: () => fake.answers.at(-1)!,
    close: () => listener.close(),
  };
  return fake;
}

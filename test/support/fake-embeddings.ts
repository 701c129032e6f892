// A fake OpenAI-compatible embeddings server on loopback, so that the real client code is tested.
// Vectors are deterministic: the words of a text, with a few synonyms folded together, hashed into 64
// dimensions and normalised. A query that shares no word with a passage but names the same things
// through synonyms lands next to it, which full text cannot do.
import type { ServerResponse } from 'node:http';
import { startListener, type Listener } from './listeners.js';

export const FAKE_DIMENSIONS = 64;

/** Words the fake treats as one, as a real model would place them close together. */
const SYNONYMS: Record<string, string> = {
  automobile: 'car',
  automobiles: 'car',
  cars: 'car',
  vehicle: 'car',
  vehicles: 'car',
  canine: 'dog',
  canines: 'dog',
  dogs: 'dog',
  puppy: 'dog',
  puppies: 'dog',
  feline: 'cat',
  felines: 'cat',
  cats: 'cat',
  kitten: 'cat',
  kittens: 'cat',
};

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'and', 'or', 'to', 'in', 'on', 'is', 'are', 'for', 'with', 'about', 'my', 'their', 'its']);

function hash(word: string): number {
  let h = 0x811c9dc5;
  for (const char of word) {
    h ^= char.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function fakeVector(text: string, dimensions = FAKE_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP_WORDS.has(raw)) continue;
    vector[hash(SYNONYMS[raw] ?? raw) % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector);
  // A text without words still gets a (fixed) direction.
  if (norm === 0) vector[0] = 1;
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** What the next requests get instead of vectors. */
export type Scripted =
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Sends part of an answer, then drops the connection. */
  | { cut: true };

export interface EmbeddingRequest {
  authorization: string | undefined;
  model: string;
  input: string[];
}

export interface FakeEmbeddingServer {
  /** http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  /** 127.0.0.1:<port>, for EGRESS_ALLOWED_HOSTS */
  host: string;
  requests: EmbeddingRequest[];
  /** Answers the next requests, one each, with these. */
  script(...answers: Scripted[]): void;
  /** Milliseconds before each answer. */
  delayMs: number;
  /** Size of the vectors it gives. */
  dimensions: number;
  /** Answers in the reverse order of the inputs (with their indexes), as a provider may. */
  shuffle: boolean;
  /** Env for startTestApp: this server as the embedder, reachable through the egress allow-list. */
  env(extra?: Record<string, string>): Record<string, string>;
  listener: Listener;
  close(): Promise<void>;
}

export const FAKE_API_KEY = 'sk-fake-0123456789abcdef0123456789';

export async function startFakeEmbeddingServer(): Promise<FakeEmbeddingServer> {
  const queue: Scripted[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const answer = (response: ServerResponse, body: Buffer) => {
    let parsed: { model?: unknown; input?: unknown };
    try {
      parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
    } catch {
      parsed = {};
    }
    const input = typeof parsed.input === 'string' ? [parsed.input] : Array.isArray(parsed.input) ? (parsed.input as string[]) : [];
    const scripted = queue.shift();
    if (scripted && 'cut' in scripted) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      response.write('{"data":[{"embedding":[0.1,');
      setTimeout(() => response.destroy(), 5);
      return;
    }
    if (scripted) {
      response.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
      response.end(scripted.body ?? JSON.stringify({ error: { message: `scripted ${scripted.status}` } }));
      return;
    }
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, server.dimensions) }));
    if (server.shuffle) data.reverse();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', model: parsed.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  };
  const listener = await startListener((request, response, body) => {
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      response.writeHead(404).end();
      return;
    }
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { model: string; input: string[] };
      server.requests.push({ authorization: request.headers.authorization, model: parsed.model, input: parsed.input });
    } catch {
      // Recorded as nothing; answered below.
    }
    if (server.delayMs <= 0) return answer(response, body);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) answer(response, body);
    }, server.delayMs);
    timers.add(timer);
  });
  const host = `127.0.0.1:${listener.port}`;
  const server: FakeEmbeddingServer = {
    baseUrl: `http://${host}/v1`,
    host,
    requests: [],
    script: (...answers) => void queue.push(...answers),
    delayMs: 0,
    dimensions: FAKE_DIMENSIONS,
    shuffle: false,
    env: (extra = {}) => ({
      EMBEDDING_BASE_URL: `http://${host}/v1`,
      EMBEDDING_MODEL: 'fake-embed-64',
      EMBEDDING_API_KEY: FAKE_API_KEY,
      EGRESS_ALLOWED_HOSTS: host,
      ...extra,
    }),
    listener,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await listener.close();
    },
  };
  return server;
}

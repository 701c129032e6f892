// The OpenAI-compatible embedder against a fake provider on loopback: batching, order, checks of the
// answer, retries with backoff and Retry-After, deadlines, and messages that never carry the key.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingSettings } from '../src/config.js';
import { createEgressClient, type EgressClient } from '../src/net/egress.js';
import { EmbeddingError } from '../src/providers/embeddings/embedder.js';
import { OpenAiCompatibleEmbedder } from '../src/providers/embeddings/openai-compatible.js';
import { backoffDelay, retryAfterMs } from '../src/providers/retry.js';
import { FAKE_API_KEY, fakeVector, startFakeEmbeddingServer, type FakeEmbeddingServer } from './support/fake-embeddings.js';
import { startListener } from './support/listeners.js';

let fake: FakeEmbeddingServer;
let egress: EgressClient;

function embedder(overrides: Partial<EmbeddingSettings> = {}, baseUrl = fake.baseUrl) {
  const settings: EmbeddingSettings = {
    baseUrl,
    model: 'fake-embed-64',
    apiKey: FAKE_API_KEY,
    dimensions: undefined,
    batchSize: 64,
    timeoutMs: 5_000,
    maxRetries: 3,
    ...overrides,
  };
  return new OpenAiCompatibleEmbedder(settings, egress, 20);
}

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EmbeddingError);
  expect((error as Error).message).not.toContain(FAKE_API_KEY);
  return error as EmbeddingError;
}

beforeAll(async () => {
  fake = await startFakeEmbeddingServer();
  egress = createEgressClient({ allowedHosts: [fake.host] });
});
afterAll(async () => {
  egress.close();
  await fake.close();
});
afterEach(() => {
  fake.requests.length = 0;
  fake.delayMs = 0;
  fake.shuffle = false;
  fake.dimensions = 64;
});

describe('OpenAI-compatible embedder', () => {
  it('sends the model and a bearer key, batches inputs, and returns vectors in the order of the texts', async () => {
    fake.shuffle = true;
    const texts = Array.from({ length: 130 }, (_, i) => `text number ${i}`);
    const client = embedder();
    const vectors = await client.embed(texts);
    expect(fake.requests.map((r) => r.input.length)).toEqual([64, 64, 2]);
    expect(fake.requests[0]).toMatchObject({ authorization: `Bearer ${FAKE_API_KEY}`, model: 'fake-embed-64' });
    expect(vectors).toHaveLength(130);
    expect(vectors[0]).toEqual(fakeVector('text number 0'));
    expect(vectors[129]).toEqual(fakeVector('text number 129'));
    expect(client.dimensions).toBe(64);
    expect(await client.embed([])).toEqual([]);
  });

  it('sends no authorization header without a key', async () => {
    await embedder({ apiKey: undefined }).embed(['hello']);
    expect(fake.requests[0]!.authorization).toBeUndefined();
  });

  it('retries a 500 and a cut answer, then succeeds', async () => {
    fake.script({ status: 500 }, { cut: true });
    const vectors = await embedder().embed(['retried text']);
    expect(vectors[0]).toEqual(fakeVector('retried text'));
    expect(fake.requests).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    await embedder().embed(['patient']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up at once when Retry-After is beyond the deadline, and after the bounded retries otherwise', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '120' } });
    const started = Date.now();
    const limited = await failure(embedder({ timeoutMs: 2_000 }).embed(['hurry']));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(limited.permanent).toBe(false);
    expect(limited.message).toMatch(/HTTP 429.*no time left/);

    fake.requests.length = 0;
    fake.script({ status: 503 }, { status: 502 }, { status: 500 });
    const down = await failure(embedder({ maxRetries: 2 }).embed(['down']));
    expect(fake.requests).toHaveLength(3);
    expect(down.permanent).toBe(false);
    expect(down.message).toContain('HTTP 500');
  });

  it('refuses for good on 401 and 400, without repeating the key the provider echoed', async () => {
    const echo = JSON.stringify({ error: { message: `Incorrect API key provided: ${FAKE_API_KEY}` } });
    fake.script({ status: 401, body: echo });
    const refused = await failure(embedder().embed(['x']));
    expect(refused.permanent).toBe(true);
    expect(refused.message).toMatch(/refused the credentials \(HTTP 401\).*EMBEDDING_API_KEY/);
    expect(fake.requests).toHaveLength(1);

    fake.script({ status: 400, body: JSON.stringify({ error: { message: `model not found; your key ${FAKE_API_KEY} and sk-other-abcdefghijkl` } }) });
    const bad = await failure(embedder().embed(['x']));
    expect(bad.permanent).toBe(true);
    expect(bad.message).toContain('model not found');
    expect(bad.message).not.toContain('sk-other');
  });

  it('times out a slow provider within the deadline with a clear message', async () => {
    fake.delayMs = 3_000;
    const started = Date.now();
    const slow = await failure(embedder({ timeoutMs: 400 }).embed(['slow']));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(slow.message).toBe('The embedding provider did not answer within 400 ms (EMBEDDING_TIMEOUT_MS)');
    expect(slow.permanent).toBe(false);
  });

  it('checks the answer: count, indexes, numbers, sizes', async () => {
    const answers = [
      { data: [] },
      { data: [{ index: 0, embedding: [1, 'x'] }] },
      { data: [{ index: 3, embedding: [1] }] },
      { nothing: true },
      { data: [{ index: 0, embedding: [] }] },
    ];
    for (const body of answers) {
      fake.script({ status: 200, body: JSON.stringify(body) });
      const invalid = await failure(embedder({ maxRetries: 0 }).embed(['one']));
      expect(invalid.message).toMatch(/^The embedding provider's answer is not valid/);
    }
    fake.script({ status: 200, body: 'not json' });
    expect((await failure(embedder({ maxRetries: 0 }).embed(['one']))).message).toContain('not JSON');

    fake.script({ status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }, { index: 1, embedding: [1, 0, 0] }] }) });
    expect((await failure(embedder().embed(['a', 'b']))).message).toMatch(/differ in size/);
  });

  it('holds to the configured dimension, or to the one it learned first', async () => {
    const configured = await failure(embedder({ dimensions: 32 }).embed(['wrong size']));
    expect(configured.permanent).toBe(true);
    expect(configured.message).toBe('The embedding provider returned vectors of 64 dimensions; EMBEDDING_DIMENSIONS is 32');

    const learning = embedder();
    await learning.embed(['first']);
    fake.dimensions = 16;
    const changed = await failure(learning.embed(['second']));
    expect(changed.message).toMatch(/16 dimensions; its earlier answers had 64/);
  });

  it('explains a refused destination and a provider that is not there', async () => {
    const refused = await failure(embedder({}, 'http://10.1.2.3/v1').embed(['x']));
    expect(refused.permanent).toBe(true);
    expect(refused.message).toContain('EGRESS_ALLOWED_HOSTS');

    const closed = await startListener();
    const port = closed.port;
    await closed.close();
    const lonely = createEgressClient({ allowedHosts: [`127.0.0.1:${port}`] });
    const client = new OpenAiCompatibleEmbedder(
      { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: FAKE_API_KEY, dimensions: undefined, batchSize: 8, timeoutMs: 2_000, maxRetries: 1 },
      lonely,
      10,
    );
    const down = await failure(client.embed(['x']));
    lonely.close();
    expect(down.permanent).toBe(false);
    expect(down.message).toMatch(/could not be reached.*\(2 attempts\)/);
  });
});

describe('retry pacing', () => {
  it('doubles the backoff with jitter, within a cap', () => {
    expect(backoffDelay(1, 100, 30_000, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, 30_000, () => 1)).toBe(100);
    expect(backoffDelay(4, 100, 30_000, () => 1)).toBe(800);
    expect(backoffDelay(20, 100, 1_000, () => 1)).toBe(1_000);
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

// The bytes of version-tagged listings kept by tag (src/http/served-bytes.ts): a request holding the tag
// is answered 304 without making the answer; a second 200 of a tag sends the kept bytes and headers
// without making them again; an answer over the cap of one answer,
// or a stream, is never kept; past the cap in all, the least recently used answers go first.
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServedBytes } from '../src/http/served-bytes.js';

describe('kept bytes of tagged answers', () => {
  const app = Fastify();
  const served = new ServedBytes(100, 40);
  let made = 0;

  beforeAll(async () => {
    // /answer/<tag>/<characters>: an answer of that many characters under that tag; ?stream=1 streams it.
    app.get<{ Params: { tag: string; size: string }; Querystring: { stream?: string } }>('/answer/:tag/:size', (request, reply) =>
      served.answer(request, reply, `"${request.params.tag}"`, async () => {
        made++;
        const body = JSON.stringify('x'.repeat(Number(request.params.size) - 2));
        return { body: request.query.stream ? Readable.from([body]) : body, headers: { 'x-made': String(made) } };
      }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('answers 304 with the tag and no body, making nothing, when If-None-Match holds the tag', async () => {
    const before = made;
    const held = await get('/answer/held/30', { 'if-none-match': 'W/"other", "held"' });
    expect(held.statusCode).toBe(304);
    expect(held.headers.etag).toBe('"held"');
    expect(held.body).toBe('');
    expect(made).toBe(before);
    const other = await get('/answer/held/30', { 'if-none-match': '"other"' });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).toBe('"held"');
    expect(made).toBe(before + 1);
    served.clear();
  });

  it('sends the kept bytes and headers for a tag already served', async () => {
    const first = await get('/answer/a/30');
    const second = await get('/answer/a/30');
    expect(second.body).toBe(first.body);
    expect(second.headers['x-made']).toBe(first.headers['x-made']);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(served.size).toEqual({ answers: 1, characters: 30 });
  });

  it('keeps neither an answer over the cap of one nor a stream', async () => {
    const before = made;
    await get('/answer/big/41');
    await get('/answer/big/41');
    await get('/answer/streamed/10?stream=1');
    await get('/answer/streamed/10?stream=1');
    expect(made - before).toBe(4);
    expect(served.size.answers).toBe(1);
  });

  it('drops the least recently used answers past the cap in all', async () => {
    for (const tag of ['b', 'c', 'd']) await get(`/answer/${tag}/30`);
    // a, b, c, d: 120 characters over a cap of 100; a, the least recently used, went.
    expect(served.size).toEqual({ answers: 3, characters: 90 });
    const before = made;
    await get('/answer/d/30');
    expect(made).toBe(before);
    await get('/answer/a/30');
    expect(made).toBe(before + 1);
  });
});

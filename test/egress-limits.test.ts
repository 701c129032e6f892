// The bounds of the egress client (time, bytes, redirects), what follows a redirect, and streaming.
// Every listener is on loopback and allow-listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createEgressClient, type EgressClient } from '../src/net/egress.js';
import { EgressFailed } from '../src/net/egress-errors.js';
import { startListener, type Listener } from './support/listeners.js';
import { rejection } from './support/rejection.js';

let server: Listener;
let other: Listener; // a second origin, to see which headers cross over
let client: EgressClient;
const stalled: ServerResponse[] = [];

beforeAll(async () => {
  other = await startListener((request, response) => response.end(JSON.stringify(request.headers)));
  server = await startListener((request, response, body) => {
    const url = new URL(request.url!, 'http://x');
    switch (url.pathname) {
      case '/silent':
        stalled.push(response);
        return;
      case '/half':
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('first part');
        stalled.push(response);
        return;
      case '/big':
        response.writeHead(200);
        for (let i = 0; i < 10; i++) response.write(Buffer.alloc(1000, 97));
        return void response.end();
      case '/big-declared':
        response.writeHead(200, { 'content-length': '10000' });
        return void response.end(Buffer.alloc(10_000, 97));
      case '/loop':
        return void response.writeHead(302, { location: '/loop' }).end();
      case '/hop':
        return void response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end();
      case '/echo':
        return void response.end(JSON.stringify({ method: request.method, headers: request.headers, body: body.toString() }));
      case '/events':
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: one\n\n');
        setTimeout(() => response.write('data: two\n\n'), 20);
        setTimeout(() => response.end('data: [DONE]\n\n'), 40);
        return;
      default:
        response.end('ok');
    }
  });
  client = createEgressClient({
    allowedHosts: [`127.0.0.1:${server.port}`, `localhost:${other.port}`],
    defaultTimeoutMs: 5_000,
    maxResponseBytes: 4_000,
  });
});

afterAll(async () => {
  client.close();
  for (const response of stalled) response.destroy();
  await Promise.all([server.close(), other.close()]);
});

const failure = (promise: Promise<unknown>) => rejection(promise, EgressFailed);

describe('egress limits', () => {
  it('times out a server that never answers, within the deadline', async () => {
    const started = Date.now();
    const error = await failure(client.request(`${server.origin}/silent?key=secret`, { timeoutMs: 200 }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`No complete answer from ${server.origin}/silent within 200 ms`);
  });

  it('times out a body that stops halfway: the deadline covers the body', async () => {
    const error = await failure(client.request(`${server.origin}/half`, { timeoutMs: 200 }));
    expect(error.kind).toBe('timeout');
  });

  it('refuses a body over the cap while reading it', async () => {
    const error = await failure(client.request(`${server.origin}/big`));
    expect(error.kind).toBe('too_large');
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.retryable).toBe(false);
  });

  it('refuses a declared length over the cap before reading, and takes a per-call cap', async () => {
    expect((await failure(client.request(`${server.origin}/big-declared`))).kind).toBe('too_large');
    const answer = await client.request(`${server.origin}/big-declared`, { maxBytes: 10_000 });
    expect(answer.body.length).toBe(10_000);
  });

  it('stops after the redirect limit', async () => {
    const before = server.requests.length;
    const error = await failure(client.request(`${server.origin}/loop`));
    expect(error.kind).toBe('redirects');
    expect(error.message).toBe(`${server.origin}/loop redirected more than 5 times`);
    expect(server.requests.length - before).toBe(6);
    expect((await failure(client.request(`${server.origin}/loop`, { maxRedirects: 0 }))).kind).toBe('redirects');
  });

  it('fails clearly when nothing listens on an allowed port', async () => {
    const closed = await startListener();
    await closed.close();
    const lonely = createEgressClient({ allowedHosts: [`127.0.0.1:${closed.port}`] });
    const error = await failure(lonely.request(`${closed.origin}/`));
    lonely.close();
    expect(error.kind).toBe('connection');
    expect(error.message).toBe(`Could not fetch ${closed.origin}/: the connection was refused`);
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(client.request(`${server.origin}/silent`, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });
});

describe('egress redirects', () => {
  it('follows redirects on the same origin and keeps method, body and credentials on 307', async () => {
    const to = encodeURIComponent('/echo');
    const answer = await client.request(`${server.origin}/hop?status=307&to=${to}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk-test', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    const echo = JSON.parse(answer.body.toString());
    expect(echo).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { authorization: 'Bearer sk-test' } });
    expect(answer.url).toBe(`${server.origin}/echo`);
  });

  it('continues with a GET without body after 303', async () => {
    const answer = await client.request(`${server.origin}/hop?status=303&to=%2Fecho`, { method: 'POST', body: 'payload' });
    expect(JSON.parse(answer.body.toString())).toMatchObject({ method: 'GET', body: '' });
  });

  it('drops credentials and custom headers on a redirect to another origin', async () => {
    const to = encodeURIComponent(`http://localhost:${other.port}/`);
    const answer = await client.request(`${server.origin}/hop?to=${to}`, {
      headers: { authorization: 'Bearer sk-test', cookie: 'session=1', 'api-key': 'k', accept: 'application/json' },
    });
    const headers = JSON.parse(answer.body.toString());
    expect(headers).not.toHaveProperty('authorization');
    expect(headers).not.toHaveProperty('cookie');
    expect(headers).not.toHaveProperty('api-key');
    expect(headers.accept).toBe('application/json');
  });
});

describe('egress streaming', () => {
  it('hands Server-Sent Events over as they arrive', async () => {
    const answer = await client.stream(`${server.origin}/events`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    let text = '';
    for await (const chunk of answer.body) text += chunk.toString();
    expect(text).toBe('data: one\n\ndata: two\n\ndata: [DONE]\n\n');
  });

  it('lets the reader stop early', async () => {
    const answer = await client.stream(`${server.origin}/events`);
    for await (const chunk of answer.body) {
      expect(chunk.toString()).toBe('data: one\n\n');
      break;
    }
    expect((await client.request(`${server.origin}/`)).body.toString()).toBe('ok');
  });

  it('applies the byte cap and the deadline to a stream', async () => {
    const big = await client.stream(`${server.origin}/big`);
    await expect(async () => {
      for await (const chunk of big.body) void chunk;
    }).rejects.toThrow(EgressFailed);
    const half = await client.stream(`${server.origin}/half`, { timeoutMs: 200 });
    const chunks: string[] = [];
    const error = await (async () => {
      for await (const chunk of half.body) chunks.push(chunk.toString());
    })().catch((caught: unknown) => caught);
    expect(chunks).toEqual(['first part']);
    expect((error as EgressFailed).kind).toBe('timeout');
  });
});

// A body refused before it is read whole must not leave a dead keep-alive connection behind: the
// refusal says Connection: close (or the body is read), and the next request a keep-alive client makes
// is answered. Run against the real listening server, since only a socket shows this.
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createUser, type TestUser } from './support/factories.js';
import { createCorpus, multipartBody } from './support/corpora.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    // A server that closes after refusing may cut the rest of our body short: that is its right.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.end(body);
  });
}

describe('connections after a refused body', () => {
  let t: TestApp;
  let owner: TestUser;
  let port: number;
  let corpusId: number;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { LIMIT_UPLOAD_FILES: '20' });
    owner = await createUser(t.app, { role: 'owner' });
    corpusId = (await createCorpus(owner)).id;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const uploads: [string, () => ReturnType<typeof multipartBody>, boolean][] = [
    ['21 files', () => multipartBody(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, bytes: `File number ${i}.` }))), true],
    [
      '5,000 parts',
      () => multipartBody([{ name: 'a.txt', bytes: 'Text.' }], Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field${i}`, 'x']))),
      true,
    ],
    ['an upload without credentials', () => multipartBody([{ name: 'a.txt', bytes: 'x'.repeat(200_000) }]), false],
  ];

  it.each(uploads)('%s: the refusal closes the connection and the next request is answered', async (_name, build, withToken) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { payload, contentType } = build();
      const headers: Record<string, string> = { 'content-type': contentType, 'content-length': String(payload.length) };
      if (withToken) headers.authorization = `Bearer ${owner.token}`;
      const refused = await send(agent, port, 'POST', `/api/v2/corpora/${corpusId}/documents`, headers, payload);
      expect(refused.status).toBe(withToken ? 413 : 401);
      expect(JSON.parse(refused.body)).toMatchObject({ success: false });
      expect(refused.headers.connection).toBe('close');

      const next = await send(agent, port, 'GET', '/api/v2/corpora', { authorization: `Bearer ${owner.token}` });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a request the HTTP parser refuses is answered in the error envelope, and the connection closed', async () => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
    await closed;
    const text = Buffer.concat(received).toString();
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ success: false, error: { code: 'bad_request', request_id: expect.any(String), details: [] } });
  });
});

// The event loop stays free while a preview reads GitHub's description (13 MB, 1,200+ operations),
// on both databases: the document is parsed and its operations listed in a thread, as an import's
// are. Proved by counting, not by timing: GET /health is asked again and again over HTTP (the server
// listening on loopback, as a client meets it) while a preview of the document at an address is
// asked, and the answers given between the moment the address finished sending the document and
// the preview's answer are counted: that is while the server read it. A small preview runs first,
// so that a reading thread is started and waits (starting one reads files, which lets answers
// through whatever the reading does). Read on the event loop, the document let through two (the event loop held 1.4 s).
// The longest event-loop delay seen is printed, not asserted.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startListener, type Listener } from './support/listeners.js';

const githubText = readFileSync('node_modules/@octokit/openapi/generated/api.github.com.json');
const SMALL = JSON.stringify({ openapi: '3.0.3', info: { title: 'Small', version: '1' }, paths: { '/a': { get: { operationId: 'a', responses: {} } } } });
/** Far fewer than a reading in a thread lets through, far more than one on the event loop did (2). */
const HEALTH_ANSWERS_WHILE_READING = 10;

describe.each(databaseKinds)('GitHub’s description previewed while others are served (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let origin: string;
  let documents: Listener;
  /** Set when the address has sent the whole description. */
  let sent = false;

  beforeAll(async () => {
    documents = await startListener((request, response) => {
      if (request.url === '/small.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(SMALL);
      if (request.url !== '/github.json') return void response.writeHead(404).end();
      response.on('finish', () => (sent = true));
      response.writeHead(200, { 'content-type': 'application/json' }).end(githubText);
    });
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${documents.port}` });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await documents?.close();
  });

  it('answers /health again and again while the document is read', { timeout: 120_000 }, async () => {
    const preview = (url: string) =>
      fetch(`${origin}/api/v2/organizations/${owner.organizationId}/tool-imports/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    const small = await preview(`${documents.origin}/small.json`);
    expect(small.status).toBe(200);
    expect(((await small.json()) as { data: { operations: unknown[] } }).data.operations).toHaveLength(1);

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let answered = false;
    const previewed = preview(`${documents.origin}/github.json`).then(async (reply) => {
      const body = (await reply.json()) as { data: { title: string; operations: unknown[] } };
      answered = true;
      return { status: reply.status, body };
    });
    let healthAnswers = 0;
    let whileReading = 0;
    while (!answered) {
      const health = await fetch(`${origin}/health`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      healthAnswers++;
      if (sent && !answered) whileReading++;
    }
    delay.disable();
    const { status, body } = await previewed;
    console.info(`GitHub preview (${kind}): ${healthAnswers} /health answers, ${whileReading} of them while the document was read; longest event-loop delay ${(delay.max / 1e6).toFixed(0)} ms`);
    expect(status).toBe(200);
    expect(body.data.title).toMatch(/GitHub/);
    expect(body.data.operations.length).toBeGreaterThan(1100);
    expect(whileReading).toBeGreaterThanOrEqual(HEALTH_ANSWERS_WHILE_READING);
  });
});

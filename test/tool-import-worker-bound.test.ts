// The event loop stays free while a tool import reads GitHub's description (13 MB, 1,200+
// operations), on both databases: the document is parsed and dereferenced in a thread, so requests
// keep being answered during that second or more. Proved by counting, not by timing: GET /health is
// asked again and again over HTTP (the server listening on loopback, as a client meets it), and the
// answers given while the import was still reading its document (running, its operations not yet
// counted) are counted. A small import runs first, so that the parser's modules are loaded (loading
// them reads files, which lets a few answers through whatever the reading does). Read on the event
// loop, the document let through only the few answers its file's reading did. The longest
// event-loop delay seen is printed, not asserted.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { pollUntil } from './support/poll.js';

const githubText = readFileSync('node_modules/@octokit/openapi/generated/api.github.com.json', 'utf8');
/** Far fewer than a reading in a thread lets through (about 500 at a load average of 10), far more than one on the event loop did (15). */
const HEALTH_ANSWERS_WHILE_READING = 50;
/** /health asked this many times between two readings of the import's state. */
const HEALTH_PROBES_BETWEEN_READINGS = 5;

describe.each(databaseKinds)('GitHub’s description imported while others are served (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let origin: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers /health again and again while the document is read', { timeout: 120_000 }, async () => {
    const path = `/api/v2/organizations/${owner.organizationId}/tool-imports`;
    const importOf = async (id: number) => {
      const reply = await fetch(`${origin}${path}/${id}`, { headers: { authorization: `Bearer ${owner.token}` } });
      return ((await reply.json()) as { data: { status: string; operations_total: number | null; skipped: number } }).data;
    };
    const small = await owner.api.post(path, { document: { openapi: '3.0.3', info: { title: 'Small', version: '1' }, servers: [{ url: 'https://small.example.com' }], paths: { '/a': { get: { operationId: 'a', responses: {} } } } } });
    expect(small.status, small.text).toBe(202);
    await pollUntil(
      () => importOf(small.body.data.id),
      (data) => data.status === 'completed',
      (data) => `the small import is still ${JSON.stringify(data)}`,
      { timeoutMs: 60_000 },
    );

    const started = await owner.api.post(path, { document: githubText, name_prefix: 'gh_' });
    expect(started.status, started.text).toBe(202);
    const reading = (data: { status: string; operations_total: number | null }) => data.status === 'running' && data.operations_total === null;

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let healthAnswers = 0;
    let whileReading = 0;
    let done = await importOf(started.body.data.id);
    const deadline = Date.now() + 110_000;
    while (done.status !== 'completed' && done.status !== 'failed') {
      if (Date.now() > deadline) throw new Error(`the import is still ${JSON.stringify(done)}`);
      const before = done;
      for (let i = 0; i < HEALTH_PROBES_BETWEEN_READINGS; i++) {
        const health = await fetch(`${origin}/health`);
        expect(health.status).toBe(200);
        await health.arrayBuffer();
      }
      healthAnswers += HEALTH_PROBES_BETWEEN_READINGS;
      done = await importOf(started.body.data.id);
      if (reading(before) && reading(done)) whileReading += HEALTH_PROBES_BETWEEN_READINGS;
    }
    delay.disable();
    console.info(`GitHub import (${kind}): ${healthAnswers} /health answers, ${whileReading} of them while the document was read; longest event-loop delay ${(delay.max / 1e6).toFixed(0)} ms`);
    expect(done).toMatchObject({ status: 'completed', skipped: 2, error: null });
    expect(done.operations_total).toBeGreaterThan(1100);
    expect(whileReading).toBeGreaterThanOrEqual(HEALTH_ANSWERS_WHILE_READING);
  });
});

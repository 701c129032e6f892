// GitHub's REST description (@octokit/openapi: 13 MB, 1,200+ operations) imported whole in one
// request, on both databases: every operation GitHub describes as JSON is made a tool, the few that
// are not JSON are named with the reason and the pointer, the names are unique, readable and within
// the model's 64 characters, the same at every import; the import's peak memory stays bounded and
// the event loop keeps turning while it runs. The time and memory are written in docs/tools.md.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportNames } from '../src/tools/api/openapi/tool-names.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { watchProcess } from './support/peak-memory.js';
import { pollUntil } from './support/poll.js';

const GITHUB = 'node_modules/@octokit/openapi/generated/api.github.com.json';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
/** Far above what the import needs (about a tenth of it), far below what a copy per operation would take. */
const PEAK_MEMORY_MB = 1024;

const githubText = readFileSync(GITHUB, 'utf8');
const operationIds = (): string[] =>
  Object.values(JSON.parse(githubText).paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([, operation]) => operation.operationId),
  );

describe('names of GitHub’s operations', () => {
  it('are unique, within 64 characters, as models accept them, and the same at every import', () => {
    const ids = operationIds();
    expect(ids.length).toBeGreaterThan(1100);
    const first = ids.map((id) => new ImportNames().claim(id));
    const names = new ImportNames();
    const claimed = ids.map((id) => names.claim(id));
    expect(claimed).toEqual(first);
    expect(new Set(claimed).size).toBe(ids.length);
    for (const name of claimed) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // Those that had to be cut keep their distinctive end.
    const cut = ids.filter((id) => id.length > 64);
    expect(cut.length).toBeGreaterThan(10);
    for (const id of cut) expect(id.endsWith(claimed[ids.indexOf(id)]!.split('_').at(-1)!)).toBe(true);
  });
});

describe.each(databaseKinds)('GitHub’s description imported whole (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes a tool of every JSON operation and names the others, within bounded memory', { timeout: 120_000 }, async () => {
    const path = `/api/v2/organizations/${owner.organizationId}/tool-imports`;
    const startedAt = performance.now();
    const watched = await watchProcess(async () => {
      const started = await owner.api.post(path, { document: githubText, name_prefix: 'gh_', secret: 'ghp_0123456789abcdef' });
      expect(started.status, started.text).toBe(202);
      return pollUntil(
        async () => (await owner.api.get(`${path}/${started.body.data.id}`)).body.data,
        (data) => data.status === 'completed' || data.status === 'failed',
        (data) => `the import is still ${JSON.stringify(data)}`,
        { timeoutMs: 110_000, everyMs: 100 },
      );
    });
    const seconds = (performance.now() - startedAt) / 1000;
    if (watched.outcome.status === 'rejected') throw watched.outcome.reason;
    const done = watched.outcome.value;
    console.info(`GitHub import (${kind}): ${done.imported} imported, ${done.skipped} skipped in ${seconds.toFixed(1)} s; peak memory ${watched.peakAboveStartMb.toFixed(0)} MB above start; ${watched.loopTurns} event-loop turns`);
    const total = operationIds().length;
    expect(done).toMatchObject({ status: 'completed', operations_total: total, operations_done: total, error: null });
    expect(done.imported + done.skipped).toBe(total);
    expect(done.imported).toBeGreaterThan(total - 10);
    expect(watched.peakAboveStartMb).toBeLessThan(PEAK_MEMORY_MB);

    const skipped = (await owner.api.get(`${path}/${done.id}/operations?status=skipped&page_size=100`)).body.data.items;
    expect(skipped.map((item: { operation: string }) => item.operation).sort()).toEqual(['markdown/render-raw', 'repos/upload-release-asset']);
    for (const item of skipped) expect(item).toMatchObject({ reason: expect.stringMatching(/not JSON/), pointer: expect.stringMatching(/^\/paths\/~1.*\/post\/requestBody\/content$/) });

    const tools = (await owner.api.get(`/api/v2/organizations/${owner.organizationId}/tools?kind=api&page_size=100`)).body.data;
    expect(tools.total).toBe(done.imported);
    for (const tool of tools.items) expect(tool.name).toMatch(/^gh_[a-zA-Z0-9_-]{1,61}$/);
  });
});

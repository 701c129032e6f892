// Many parallel updates and restores of one agent: every one is recorded, versions are distinct
// and gapless, and the agent ends in the state of the last change committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

const WRITERS = 40;

describe.each(databaseKinds)('concurrent changes to one agent (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  it('serialises updates and restores without losing any', async () => {
    const agent = await createAgent(member, { instructions: 'base' });
    await member.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'second' });
    const records = (await member.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items as { history_id: number }[];
    const targets = records.map((r) => r.history_id);

    const replies = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        i % 2 === 0
          ? member.api.put(`/api/v2/agents/${agent.id}`, { instructions: `update ${i}` })
          : member.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: targets[i % targets.length] }),
      ),
    );
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);

    const history = (await member.api.get(`/api/v2/agents/${agent.id}/history?page_size=100`)).body.data;
    expect(history.total).toBe(2 + WRITERS);
    const versions = (history.items as { version: number }[]).map((r) => r.version);
    // Newest first, one record per version, no gap: WRITERS+2, …, 2, 1.
    expect(versions).toEqual(Array.from({ length: WRITERS + 2 }, (_, i) => WRITERS + 2 - i));

    const final = (await member.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(final.version).toBe(WRITERS + 2);
    const newest = (await member.api.get(`/api/v2/agents/${agent.id}/history/${history.items[0].history_id}`)).body.data;
    expect(newest.is_current).toBe(true);
    expect(newest.snapshot.instructions).toBe(final.instructions);
  });

  it('with If-Match, exactly one of many writers based on the same version wins', async () => {
    const agent = await createAgent(member);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        member.api.put(`/api/v2/agents/${agent.id}`, { description: `writer ${i}` }, { headers: { 'if-match': '"1"' } }),
      ),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 412)).toHaveLength(9);
    expect((await member.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.total).toBe(2);
  });
});

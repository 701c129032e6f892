import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { steppedClock } from './support/clock.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('recent and starred agents (%s)', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await createUser(t.app, { role: 'member' });
    bob = await createUser(t.app, { role: 'viewer' });
  });
  afterAll(() => t.close());

  for (const list of ['recent', 'starred'] as const) {
    it(`${list}: add, list newest first, per user, remove`, async () => {
      const first = await createAgent(alice);
      const second = await createAgent(alice);
      const clock = steppedClock();
      onTestFinished(clock.restore);
      expect((await bob.api.post(`/api/v2/agents/${list}`, { agent_id: first.id })).status).toBe(200);
      clock.step();
      expect((await bob.api.post(`/api/v2/agents/${list}`, { agent_id: second.id })).body.data).toEqual({ agent_id: second.id });
      // Adding twice keeps one entry.
      expect((await bob.api.post(`/api/v2/agents/${list}`, { agent_id: second.id })).status).toBe(200);

      const listed = await bob.api.get(`/api/v2/agents/${list}`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.items.map((a: { id: number }) => a.id)).toEqual([second.id, first.id]);
      expect(listed.body.data.total).toBe(2);
      expect((await alice.api.get(`/api/v2/agents/${list}`)).body.data.total).toBe(0);

      expect((await bob.api.delete(`/api/v2/agents/${list}/${first.id}`)).status).toBe(200);
      expect((await bob.api.delete(`/api/v2/agents/${list}/${first.id}`)).status).toBe(404);
      expect((await bob.api.get(`/api/v2/agents/${list}`)).body.data.items.map((a: { id: number }) => a.id)).toEqual([second.id]);

      // A deleted agent drops off the list.
      await alice.api.delete(`/api/v2/agents/${second.id}`);
      expect((await bob.api.get(`/api/v2/agents/${list}`)).body.data.total).toBe(0);
    });

    it(`${list}: 404 for an unknown agent, 400 for a bad body`, async () => {
      expect((await bob.api.post(`/api/v2/agents/${list}`, { agent_id: 5555555 })).status).toBe(404);
      expect((await bob.api.post(`/api/v2/agents/${list}`, {})).status).toBe(400);
      expect((await bob.api.post(`/api/v2/agents/${list}`, { agent_id: 'one' })).status).toBe(400);
      expect((await bob.api.delete(`/api/v2/agents/${list}/5555555`)).status).toBe(404);
    });
  }
});

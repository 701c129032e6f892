// Recording usage events: the recorder fills the agent's project and team, keeps cost exact, and
// records an answer once however often it is asked to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUsage, fromNanoUsd, toNanoUsd } from '../src/modules/analytics/usage-events.js';
import { unitOfWork } from '../src/repositories.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

describe('nano-dollars', () => {
  it('turn USD at a millionth of a cent into whole numbers and back', () => {
    expect(toNanoUsd(0.00000123)).toBe(1230);
    expect(fromNanoUsd(1230)).toBe(0.00000123);
    expect(fromNanoUsd(toNanoUsd(12.34567891))).toBe(12.34567891);
  });
});

describe.each(databaseKinds)('usage events on %s', (kind) => {
  let test: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    test = await startTestApp(kind);
    owner = await createUser(test.app, { role: 'owner' });
  });
  afterAll(() => test.close());

  it('records a judge call with the agent project and team looked up', async () => {
    const agent = await createAgent(owner);
    const { repos } = unitOfWork(test.app.database);
    await recordUsage(repos, {
      kind: 'judge',
      organization_id: owner.organizationId,
      agent_id: agent.id,
      user_id: owner.id,
      evaluation_id: 7,
      model: 'judge-model',
      prompt_tokens: 120,
      completion_tokens: 8,
      cost: 0.00012345,
      occurred_on: '2026-11-23T10:00:00.000Z',
    });
    const row = await test.app.database.db.selectFrom('usage_events').selectAll().where('evaluation_id', '=', 7).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'judge', agent_id: agent.id, project_id: null, team_id: null, cost_nano_usd: 123450, prompt_tokens: 120 });
    expect(row.occurred_on).toBe('2026-11-23T10:00:00.000Z');
  });
});

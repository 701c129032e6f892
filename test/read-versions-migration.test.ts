// Migration 2026_11_28_0080 gives agents, each organization's agents and corpora, and each user's
// permissions a read version moved by triggers. A database with rows upgrades (every version at 0),
// and from then on every write a read shows moves its versions, and only its own, on both databases —
// writes made past the services included, as these are.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate.js';
import { ReadVersionsRepo } from '../src/db/read-versions.repo.js';
import { databaseKinds } from './support/databases.js';
import { emptyDatabase } from './support/empty-database.js';

const PREVIOUS = '2026_11_28_0060_corpus_listing_versions';
const MIGRATION = '2026_11_28_0080_read_versions';
const AT = '2026-11-20T10:00:00.000Z';

const ids = async (query: Promise<{ id: number | bigint | string }>) => Number((await query).id);

describe.each(databaseKinds)('the read versions migration (%s)', (kind) => {
  it('upgrades a database with rows, and moves each version with the writes its reads show', async () => {
    const { database, drop } = await emptyDatabase(kind);
    try {
      const migrator = migratorOf(database);
      expect((await migrator.migrateTo(PREVIOUS)).error).toBeUndefined();
      const db = database.db as unknown as Kysely<any>;
      const organization = () => ids(db.insertInto('organizations').values({ name: 'Acme', created_on: AT, modified_on: AT }).returning('id').executeTakeFirstOrThrow());
      const user = (organizationId: number, email: string) =>
        ids(db.insertInto('users').values({ organization_id: organizationId, email, role: 'member', created_on: AT, modified_on: AT }).returning('id').executeTakeFirstOrThrow());
      const agent = (organizationId: number, userId: number, name: string) =>
        ids(
          db
            .insertInto('agents')
            .values({ organization_id: organizationId, name, temperature: 0.5, max_tokens: 100, status: 'draft', version: 1, created_on: AT, created_by: userId, modified_on: AT, modified_by: userId })
            .returning('id')
            .executeTakeFirstOrThrow(),
        );
      const corpus = (organizationId: number, userId: number, name: string) =>
        ids(db.insertInto('corpora').values({ organization_id: organizationId, name, created_on: AT, created_by: userId, modified_on: AT, modified_by: userId }).returning('id').executeTakeFirstOrThrow());

      const acme = await organization();
      const other = await organization();
      const alice = await user(acme, 'alice@example.com');
      const bob = await user(acme, 'bob@example.com');
      const stranger = await user(other, 'stranger@example.com');
      const agentId = await agent(acme, alice, 'Helper');
      const otherAgentId = await agent(acme, bob, 'Other');
      const corpusId = await corpus(acme, alice, 'Policies');
      const team = await ids(db.insertInto('teams').values({ organization_id: acme, name: 'Support', description: '', created_on: AT, created_by: alice, modified_on: AT, modified_by: alice }).returning('id').executeTakeFirstOrThrow());

      const { error, results } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      expect(results?.map((result) => result.migrationName)).toContain(MIGRATION);

      const versions = new ReadVersionsRepo(database.db);
      const snapshot = async () => ({
        agent: (await versions.ofAgent(acme, agentId, alice))!,
        otherAgent: (await versions.ofAgent(acme, otherAgentId, bob))!,
        agents: await versions.ofOrganization('agents', acme, alice),
        corpora: await versions.ofOrganization('corpora', acme, bob),
        strangerAgents: await versions.ofOrganization('agents', other, stranger),
        strangerCorpora: await versions.ofOrganization('corpora', other, stranger),
      });
      const start = await snapshot();
      expect(start.agent).toEqual({ version: 1, value: 0, epoch: 0 });
      expect(start.corpora).toEqual({ value: 0, epoch: 0 });
      // Another organization's agent is not found.
      expect(await versions.ofAgent(other, agentId, stranger)).toBeUndefined();

      /** Runs the write and tells which of the versions moved. */
      const moved = async (write: () => Promise<unknown>) => {
        const before = await snapshot();
        await write();
        const after = await snapshot();
        const names: string[] = [];
        for (const key of Object.keys(after) as (keyof typeof after)[]) {
          if (after[key].value !== before[key].value) names.push(key);
          if (after[key].epoch !== before[key].epoch) names.push(`${key} epoch`);
        }
        return names.sort();
      };

      expect(await moved(() => db.updateTable('agents').set({ description: 'Answers', version: 2 }).where('id', '=', agentId).execute())).toEqual(['agent', 'agents']);
      expect(await moved(() => db.insertInto('corpus_agents').values({ corpus_id: corpusId, agent_id: agentId, created_on: AT, created_by: alice }).execute())).toEqual(['agent', 'agents']);
      expect(await moved(() => db.deleteFrom('corpus_agents').where('agent_id', '=', agentId).execute())).toEqual(['agent', 'agents']);
      // Bob's e-mail shows on the agent he made, not on Alice's (and the corpora move with every e-mail of their organization).
      expect(await moved(() => db.updateTable('users').set({ email: 'robert@example.com' }).where('id', '=', bob).execute())).toEqual(['agents', 'corpora', 'otherAgent']);
      // Alice's e-mail shows on her agent and her corpus (through its listing version).
      expect(await moved(() => db.updateTable('users').set({ email: 'alice2@example.com' }).where('id', '=', alice).execute())).toEqual(['agent', 'agents', 'corpora']);
      expect(await moved(() => db.updateTable('corpora').set({ description: 'All of them' }).where('id', '=', corpusId).execute())).toEqual(['corpora']);
      // A grant moves the corpora and the grantee's epoch.
      expect(await moved(() => db.insertInto('corpus_permissions').values({ corpus_id: corpusId, user_id: bob, permission: 'read', created_on: AT, created_by: alice }).execute())).toEqual([
        'corpora',
        'corpora epoch',
        'otherAgent epoch',
      ]);
      expect(await moved(() => db.updateTable('corpus_permissions').set({ permission: 'write' }).where('user_id', '=', bob).execute())).toEqual(['corpora', 'corpora epoch', 'otherAgent epoch']);
      expect(await moved(() => db.deleteFrom('corpus_permissions').where('user_id', '=', bob).execute())).toEqual(['corpora', 'corpora epoch', 'otherAgent epoch']);
      // A document moves the corpora (their counts) through the corpus's listing version.
      expect(
        await moved(() =>
          db
            .insertInto('documents')
            .values({
              organization_id: acme,
              corpus_id: corpusId,
              type: 'txt',
              source: 'text',
              text: 'Returns.',
              tags: '[]',
              upload_from: 'text',
              step: 'queued',
              content_hash: 'a'.repeat(64),
              size_bytes: 8,
              created_on: AT,
              created_by: alice,
              modified_on: AT,
              modified_by: alice,
            })
            .execute(),
        ),
      ).toEqual(['corpora']);
      // Role, team and project membership: the epoch of that user alone.
      expect(await moved(() => db.updateTable('users').set({ role: 'admin' }).where('id', '=', alice).execute())).toEqual(['agent epoch', 'agents epoch']);
      expect(await moved(() => db.insertInto('team_members').values({ team_id: team, user_id: bob, organization_id: acme, role: 'editor', created_on: AT, created_by: alice, modified_on: AT }).execute())).toEqual([
        'corpora epoch',
        'otherAgent epoch',
      ]);
      expect(await moved(() => db.deleteFrom('team_members').where('user_id', '=', bob).execute())).toEqual(['corpora epoch', 'otherAgent epoch']);
      // A write no read shows moves nothing.
      expect(await moved(() => db.updateTable('users').set({ modified_on: '2026-11-21T10:00:00.000Z' }).where('id', '=', alice).execute())).toEqual([]);
      // Deleting an agent moves the organization's agents; one made later starts above 0.
      const agentsBefore = (await versions.ofOrganization('agents', acme, alice)).value;
      await db.deleteFrom('agents').where('id', '=', otherAgentId).execute();
      expect((await versions.ofOrganization('agents', acme, alice)).value).toBeGreaterThan(agentsBefore);
      expect((await versions.ofAgent(acme, await agent(acme, alice, 'Third'), alice))!.value).toBe(1);
    } finally {
      await drop();
    }
  });
});

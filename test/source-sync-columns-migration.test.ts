// Migration 2026_11_28_0030 gives connectors and mailboxes the same sync columns. A database built up to
// the migration before it holds rows written by that schema (a connector part-way through a full sync,
// one whose last sync failed, a mailbox with its cursor and counters, and fresh ones); once migrated,
// every row reads back the same (each column as it was, a connector's delta link, page link and
// full-sync flag gathered into its sync_cursor, a mailbox's cursor renamed), the presenters answer what
// they answered before, and the engine's one repository writes either table's sync.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migratorOf } from '../src/db/migrate.js';
import { presentConnector } from '../src/modules/connectors/connector.presenter.js';
import { ConnectorsRepo } from '../src/modules/connectors/connectors.repo.js';
import { presentMailbox } from '../src/modules/email-indexing/mailbox.presenter.js';
import { MailboxesRepo } from '../src/modules/email-indexing/mailboxes.repo.js';
import { driveCursorOf } from '../src/modules/sources/graph/drive-cursor.js';
import { SourceSyncRepo, type SourceTableName } from '../src/modules/sources/source-sync.repo.js';
import { databaseKinds } from './support/databases.js';
import { emptyDatabase } from './support/empty-database.js';

const PREVIOUS = '2026_11_28_0029_search_generations';
const MIGRATION = '2026_11_28_0030_source_sync_columns';

const AT = '2026-11-20T10:00:00.000Z';
const STARTED = '2026-11-27T08:00:00.000Z';
const FINISHED = '2026-11-27T08:05:30.000Z';
const NEXT = '2026-11-27T09:05:30.000Z';

/** Rows as the schema before the migration has them, in its column names. */
async function writePreviousRows(db: Kysely<any>) {
  const { id: organizationId } = await db.insertInto('organizations').values({ name: 'Acme', created_on: AT, modified_on: AT }).returning('id').executeTakeFirstOrThrow();
  const { id: userId } = await db
    .insertInto('users')
    .values({ organization_id: organizationId, email: 'owner@example.com', role: 'owner', created_on: AT, modified_on: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: corpusId } = await db
    .insertInto('corpora')
    .values({ organization_id: organizationId, name: 'Policies', created_on: AT, created_by: userId, modified_on: AT, modified_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();

  const connector = {
    organization_id: organizationId,
    corpus_id: corpusId,
    tenant_id: 'tenant',
    client_id: 'client',
    client_secret_sealed: 'sealed',
    client_secret_key_id: 'key-1',
    client_secret_hint: '…abcd',
    created_on: AT,
    created_by: userId,
    modified_on: AT,
    modified_by: userId,
  };
  const connectors = [
    {
      row: {
        ...connector,
        name: 'Part-way through a full sync',
        drive_id: 'drive-1',
        folder_path: 'Policies',
        schedule_minutes: 60,
        delta_link: 'https://graph.example/drives/drive-1/root/delta?token=1',
        page_link: 'https://graph.example/drives/drive-1/root/delta?page=2',
        full_sync: 1,
        sync_number: 3,
        sync_status: 'running',
        sync_started_on: STARTED,
        sync_added: 4,
        sync_updated: 2,
        sync_removed: 1,
        sync_failed: 1,
        sync_failures: JSON.stringify([{ name: 'big.pdf', reason: 'larger than the limit of 10 bytes' }]),
      },
      cursor: { deltaLink: 'https://graph.example/drives/drive-1/root/delta?token=1', pageLink: 'https://graph.example/drives/drive-1/root/delta?page=2', full: true },
    },
    {
      row: {
        ...connector,
        name: 'Refused',
        site_id: 'site-1',
        schedule_minutes: 120,
        delta_link: 'https://graph.example/sites/site-1/drive/root/delta?token=9',
        sync_number: 2,
        sync_status: 'failed',
        sync_started_on: STARTED,
        sync_finished_on: FINISHED,
        sync_added: 1,
        sync_error_code: 'auth',
        sync_error: 'The tenant refused the application',
        next_sync_on: NEXT,
      },
      cursor: { deltaLink: 'https://graph.example/sites/site-1/drive/root/delta?token=9' },
    },
    { row: { ...connector, name: 'Never synced', drive_id: 'drive-2' }, cursor: {} },
  ];
  for (const { row } of connectors) await db.insertInto('connectors').values(row).execute();

  const mailbox = { organization_id: organizationId, corpus_id: corpusId, refresh_token_sealed: 'sealed', refresh_token_key_id: 'key-1', created_on: AT, created_by: userId, modified_on: AT };
  const mailboxes = [
    {
      ...mailbox,
      provider: 'microsoft',
      address: 'team@example.com',
      folders: JSON.stringify(['inbox', 'archive']),
      cursor: JSON.stringify({ inbox: { deltaLink: 'https://graph.example/me/mailFolders/inbox/messages/delta?token=5' } }),
      sync_number: 5,
      sync_status: 'succeeded',
      sync_started_on: STARTED,
      sync_finished_on: FINISHED,
      sync_added: 7,
      sync_removed: 2,
      sync_failed: 1,
      schedule_minutes: 30,
      next_sync_on: NEXT,
      generation: 2,
      sync_job_id: 41,
    },
    { ...mailbox, provider: 'google', address: 'owner@example.com', folders: JSON.stringify(['INBOX']), authorization_status: 'reauthorization_required' },
  ];
  for (const row of mailboxes) await db.insertInto('mailboxes').values(row).execute();
  return { organizationId, connectors };
}

/** What the routes answer of every connector and mailbox (through the repositories and presenters). */
async function presented(database: Database, organizationId: number, connectorIds: number[], mailboxIds: number[]) {
  const connectors = new ConnectorsRepo(database.db, database.dialect);
  const mailboxes = new MailboxesRepo(database.db, database.dialect);
  return {
    connectors: await Promise.all(connectorIds.map(async (id) => presentConnector((await connectors.find(organizationId, id))!))),
    mailboxes: await Promise.all(mailboxIds.map(async (id) => presentMailbox((await mailboxes.find(organizationId, id))!))),
  };
}

describe.each(databaseKinds)('the sources’ sync columns migration (%s)', (kind) => {
  it('keeps every connector and mailbox as it was, in the columns both tables now share', async () => {
    const { database, drop } = await emptyDatabase(kind);
    try {
      const migrator = migratorOf(database);
      expect((await migrator.migrateTo(PREVIOUS)).error).toBeUndefined();
      const db = database.db as unknown as Kysely<any>;
      const { organizationId, connectors } = await writePreviousRows(db);
      const read = (table: SourceTableName) => db.selectFrom(table).selectAll().orderBy('id').execute();
      const connectorsBefore = await read('connectors');
      const mailboxesBefore = await read('mailboxes');
      const connectorIds = connectorsBefore.map((row) => Number(row.id));
      const mailboxIds = mailboxesBefore.map((row) => Number(row.id));
      const viewsBefore = await presented(database, organizationId, connectorIds, mailboxIds);

      const { error, results } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      expect(results?.map((result) => result.migrationName)).toContain(MIGRATION);

      const connectorsAfter = await read('connectors');
      expect(connectorsAfter).toHaveLength(connectors.length);
      connectorsAfter.forEach((after, index) => {
        const { delta_link, page_link, full_sync, ...kept } = connectorsBefore[index]!;
        expect(after).toEqual({ ...kept, sync_job_id: null, sync_cursor: after.sync_cursor });
        expect(JSON.parse(after.sync_cursor)).toEqual(connectors[index]!.cursor);
        expect(driveCursorOf(after.sync_cursor)).toEqual(connectors[index]!.cursor);
      });
      const mailboxesAfter = await read('mailboxes');
      expect(mailboxesAfter).toHaveLength(mailboxesBefore.length);
      mailboxesAfter.forEach((after, index) => {
        const { cursor, ...kept } = mailboxesBefore[index]!;
        expect(after).toEqual({ ...kept, sync_cursor: cursor, sync_updated: 0, sync_failures: '[]' });
      });
      expect(await presented(database, organizationId, connectorIds, mailboxIds)).toEqual(viewsBefore);

      // One shape: the engine's repository starts, counts and reads a sync on either table alike.
      const sourceSync = new SourceSyncRepo(database.db);
      for (const [table, id] of [['connectors', connectorIds[2]!], ['mailboxes', mailboxIds[1]!]] as const) {
        expect(await sourceSync.start(table, organizationId, id, 7, { sync_number: 1, sync_started_on: STARTED })).toBe(true);
        expect(await sourceSync.start(table, organizationId, id, 8, { sync_number: 2 })).toBe(false);
        await sourceSync.bump(table, id, 'sync_updated', 2);
        expect(await sourceSync.find(table, organizationId, id)).toMatchObject({ sync_status: 'running', sync_job_id: 7, sync_number: 1, sync_started_on: STARTED, sync_updated: 2 });
      }
    } finally {
      await drop();
    }
  });
});

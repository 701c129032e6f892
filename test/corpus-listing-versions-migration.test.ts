// Migration 2026_11_28_0060 gives each corpus a listing version moved by triggers. A database built up
// to the migration before it, with rows, upgrades: its corpora start at 0 (no row), and from then on
// every write a listing shows moves the version of its corpus, and only of its corpus, on both databases.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate.js';
import { CorporaRepo } from '../src/modules/corpora/corpora.repo.js';
import { databaseKinds } from './support/databases.js';
import { emptyDatabase } from './support/empty-database.js';

const PREVIOUS = '2026_11_28_0050_tool_imports';
const MIGRATION = '2026_11_28_0060_corpus_listing_versions';
const AT = '2026-11-20T10:00:00.000Z';

async function insertCorpus(db: Kysely<any>, organizationId: number, userId: number, name: string): Promise<number> {
  const row = await db
    .insertInto('corpora')
    .values({ organization_id: organizationId, name, created_on: AT, created_by: userId, modified_on: AT, modified_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function insertDocument(db: Kysely<any>, organizationId: number, corpusId: number, userId: number, text: string): Promise<number> {
  const row = await db
    .insertInto('documents')
    .values({
      organization_id: organizationId,
      corpus_id: corpusId,
      type: 'txt',
      source: 'text',
      text,
      tags: '[]',
      upload_from: 'text',
      step: 'queued',
      content_hash: randomBytes(32).toString('hex'),
      size_bytes: text.length,
      created_on: AT,
      created_by: userId,
      modified_on: AT,
      modified_by: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

describe.each(databaseKinds)('the corpus listing versions migration (%s)', (kind) => {
  it('upgrades a database with rows, and moves a corpus’s version with every write its listing shows', async () => {
    const { database, drop } = await emptyDatabase(kind);
    try {
      const migrator = migratorOf(database);
      expect((await migrator.migrateTo(PREVIOUS)).error).toBeUndefined();
      const db = database.db as unknown as Kysely<any>;
      const { id: organizationId } = await db.insertInto('organizations').values({ name: 'Acme', created_on: AT, modified_on: AT }).returning('id').executeTakeFirstOrThrow();
      const { id: userId } = await db
        .insertInto('users')
        .values({ organization_id: organizationId, email: 'owner@example.com', role: 'owner', created_on: AT, modified_on: AT })
        .returning('id')
        .executeTakeFirstOrThrow();
      const corpusId = await insertCorpus(db, organizationId, userId, 'Policies');
      const otherId = await insertCorpus(db, organizationId, userId, 'Other');
      const documentId = await insertDocument(db, organizationId, corpusId, userId, 'Returns within 30 days.');
      await db.insertInto('document_tags').values({ document_id: documentId, tag: 'policy' }).execute();

      const { error, results } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      expect(results?.map((result) => result.migrationName)).toContain(MIGRATION);

      const corpora = new CorporaRepo(database.db, database.dialect);
      const version = () => corpora.listingVersion(corpusId);
      expect(await version()).toBe(0);
      expect(await corpora.listingVersion(otherId)).toBe(0);

      const moves = async (write: () => Promise<unknown>) => {
        const before = await version();
        await write();
        expect(await version()).toBeGreaterThan(before);
      };
      await moves(() => db.updateTable('documents').set({ step: 'indexed' }).where('id', '=', documentId).execute());
      await moves(() => db.insertInto('document_tags').values({ document_id: documentId, tag: 'returns' }).execute());
      await moves(() => db.deleteFrom('document_tags').where('document_id', '=', documentId).where('tag', '=', 'policy').execute());
      await moves(() => db.updateTable('users').set({ last_name: 'Renamed' }).where('id', '=', userId).execute());
      let added = 0;
      await moves(async () => (added = await insertDocument(db, organizationId, corpusId, userId, 'Shipping takes 3 days.')));
      await moves(() => db.deleteFrom('documents').where('id', '=', added).execute());
      // A write that changes nothing a listing shows (a user's role) moves nothing.
      const quiet = await version();
      await db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute();
      expect(await version()).toBe(quiet);
      // Only the corpus written to: the other one moved with the user's name alone.
      expect(await corpora.listingVersion(otherId)).toBe(1);
      // A corpus made from now on starts above 0.
      expect(await corpora.listingVersion(await insertCorpus(db, organizationId, userId, 'New'))).toBe(1);
    } finally {
      await drop();
    }
  });
});

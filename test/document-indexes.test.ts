// A corpus's documents are read through the index of their organization and corpus, whatever else
// the organization holds: the listing's page and the counts by step once read every document of the
// organization through an analytics index (organization_id, indexed_on), chosen by SQLite without
// statistics (migration 2026_11_24_0023).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';

/** The shapes of the corpus's document queries: a page newest first with its count, the counts by step. */
const QUERIES = {
  page: (organizationId: number, corpusId: number) =>
    sql`select d.id, count(*) over () as total from documents as d where d.organization_id = ${organizationId} and d.corpus_id = ${corpusId} and d.deleted_on is null order by d.id desc limit 200`,
  steps: (organizationId: number, corpusId: number) =>
    sql`select step, count(*) as count from documents where organization_id = ${organizationId} and corpus_id = ${corpusId} group by step`,
};

describe.each(databaseKinds)('indexes of documents (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** The indexes the database's plan for the statement reads documents through. */
  async function indexesOf(statement: ReturnType<(typeof QUERIES)['page']>): Promise<string> {
    const db = t.app.database.db;
    if (kind === 'sqlite') {
      const { rows } = await sql<{ detail: string }>`explain query plan ${statement}`.execute(db);
      return rows.map((row) => row.detail).join('\n');
    }
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(db);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it.each(Object.keys(QUERIES) as (keyof typeof QUERIES)[])('the %s of a corpus goes through (organization_id, corpus_id, id)', async (name) => {
    const plan = await indexesOf(QUERIES[name](1, 2));
    expect(plan).toContain('documents_organization_corpus');
    expect(plan).not.toMatch(/documents_indexed|documents_created/);
  });
});

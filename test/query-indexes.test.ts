// Indexes that reads and deletes need, checked on both databases. A corpus's documents and a thread's
// responses are read through the index of their organization and corpus or thread, whatever else the
// organization holds: they were once read through an index of the organization alone, every row of
// it, the choice of SQLite without statistics (migration 2026_11_24_0023). And what refers to a
// document or a chunk is indexed, so that deleting one does not read whole tables (2026_11_24_0024).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';

/** The statements' shapes (as the repositories write them), with the index each should read through. */
const QUERIES = {
  page: (organizationId: number, corpusId: number) =>
    sql`select d.id, count(*) over () as total from documents as d where d.organization_id = ${organizationId} and d.corpus_id = ${corpusId} and d.deleted_on is null order by d.id desc limit 200`,
  steps: (organizationId: number, corpusId: number) =>
    sql`select step, count(*) as count from documents where organization_id = ${organizationId} and corpus_id = ${corpusId} group by step`,
  duplicates: (organizationId: number, corpusId: number) =>
    sql`select id from documents where organization_id = ${organizationId} and corpus_id = ${corpusId} and deleted_on is null and content_hash in (${sql.join(['a', 'b', 'c', 'd', 'e'])})`,
  responses: (organizationId: number, threadId: number) =>
    sql`select r.*, creator.email from agent_responses as r inner join chat_threads as t on t.id = r.thread_id inner join users as creator on creator.id = r.created_by
        where r.organization_id = ${organizationId} and t.deleted_on is null and r.thread_id = ${threadId} order by r.id asc`,
  projectResponses: (organizationId: number, projectId: number) =>
    sql`select r.id, count(*) over () as total from agent_responses as r inner join chat_threads as t on t.id = r.thread_id
        where r.organization_id = ${organizationId} and t.deleted_on is null and r.project_id = ${projectId} order by r.id desc limit 20`,
};

/** The index each statement should read through, and the organization's indexes it must not take. */
const ORGANIZATION_WIDE = /documents_indexed|documents_created|agent_responses_organization|agent_responses_created/;
const EXPECTED: Record<keyof typeof QUERIES, string> = {
  page: 'documents_corpus_organization',
  steps: 'documents_corpus_organization',
  duplicates: 'documents_hash',
  responses: 'agent_responses_thread_organization',
  projectResponses: 'agent_responses_project',
};

describe.each(databaseKinds)('indexes of what an organization holds (%s)', (kind) => {
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

  // PostgreSQL chooses by its statistics: on these empty tables every index looks alike for a project's
  // first 20 responses or a few content hashes, which with rows to count it tells apart. SQLite, which
  // keeps none, chooses by the shape of the indexes alone: what these two check.
  const byStatistics = new Set<keyof typeof QUERIES>(['projectResponses', 'duplicates']);
  const shapes = (Object.keys(QUERIES) as (keyof typeof QUERIES)[]).filter((name) => kind === 'sqlite' || !byStatistics.has(name));
  it.each(shapes)('%s: read through the index of what it selects', async (name) => {
    const plan = await indexesOf(QUERIES[name](1, 2));
    expect(plan).toContain(EXPECTED[name]);
    expect(plan).not.toMatch(ORGANIZATION_WIDE);
  });
});

/** Parents deleted one by one in great numbers (a corpus's documents, their chunks). */
const OFTEN_DELETED = ['documents', 'chunks'];

describe.each(databaseKinds)('columns referring to documents and chunks (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** "table.column" of each foreign key to those parents that no index leads with. */
  async function unindexedReferences(): Promise<string[]> {
    const db = t.app.database.db;
    if (kind === 'postgres') {
      const { rows } = await sql<{ reference: string }>`
        select c.conrelid::regclass::text || '.' || a.attname as reference
        from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.confrelid::regclass::text in (${sql.join(OFTEN_DELETED)})
          and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])`.execute(db);
      return rows.map((row) => row.reference);
    }
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like '%references%'`.execute(db);
    const unindexed: string[] = [];
    for (const { name } of tables) {
      const { rows: keys } = await sql<{ table: string; from: string }>`select "table", "from" from pragma_foreign_key_list(${name})`.execute(db);
      const { rows: leading } = await sql<{ column: string }>`
        select (select name from pragma_index_info(l.name) where seqno = 0) as "column" from pragma_index_list(${name}) as l`.execute(db);
      for (const key of keys) {
        if (OFTEN_DELETED.includes(key.table) && !leading.some((index) => index.column === key.from)) unindexed.push(`${name}.${key.from}`);
      }
    }
    return unindexed;
  }

  it('are indexed: deleting one must not read whole tables to find what refers to it', async () => {
    expect(await unindexedReferences()).toEqual([]);
  });
});

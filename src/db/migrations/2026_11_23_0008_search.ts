// Search by analysed terms (src/search): each chunk keeps the terms of its document's title, its
// heading path and its text, made by the server's analyser, and the databases index those terms
// as they are, so that both match alike. Each corpus has a language for stemming and stop words.
// Existing chunks are analysed here. Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import { reanalyzeChunks } from '../../search/reanalyze.sql.js';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('corpora').addColumn('language', 'text', (c) => c.notNull().defaultTo('english')).execute();
  // The title the document's file gives (HTML <title>, PDF metadata), when it gives one.
  await db.schema.alterTable('documents').addColumn('title', 'text').execute();
  for (const column of ['search_title', 'search_heading', 'search_body']) {
    await db.schema.alterTable('chunks').addColumn(column, 'text', (c) => c.notNull().defaultTo('')).execute();
  }

  if (d.name === 'sqlite') {
    await sql`drop trigger chunks_fts_insert`.execute(db);
    await sql`drop trigger chunks_fts_delete`.execute(db);
    await sql`drop table chunks_fts`.execute(db);
    await reanalyzeChunks(db);
    // The terms are already folded and stemmed: the tokenizer only splits them at spaces.
    await sql`create virtual table chunks_fts using fts5(search_title, search_heading, search_body, content='chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 0')`.execute(db);
    await sql`insert into chunks_fts(chunks_fts) values ('rebuild')`.execute(db);
    const columns = sql.raw('rowid, search_title, search_heading, search_body');
    const values = (row: 'new' | 'old') => sql.raw(['id', 'search_title', 'search_heading', 'search_body'].map((column) => `${row}.${column}`).join(', '));
    await sql`create trigger chunks_fts_insert after insert on chunks begin
      insert into chunks_fts(${columns}) values (${values('new')});
    end`.execute(db);
    await sql`create trigger chunks_fts_delete after delete on chunks begin
      insert into chunks_fts(chunks_fts, ${columns}) values ('delete', ${values('old')});
    end`.execute(db);
    await sql`create trigger chunks_fts_update after update of search_title, search_heading, search_body on chunks begin
      insert into chunks_fts(chunks_fts, ${columns}) values ('delete', ${values('old')});
      insert into chunks_fts(${columns}) values (${values('new')});
    end`.execute(db);
  } else {
    await sql`drop index chunks_search`.execute(db);
    await sql`alter table chunks drop column search`.execute(db);
    await reanalyzeChunks(db);
    // `simple` lower-cases and splits at spaces: the terms go in as the analyser made them.
    await sql`alter table chunks add column search tsvector generated always as (
      setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_heading), 'B') || to_tsvector('simple', search_body)
    ) stored`.execute(db);
    await sql`create index chunks_search on chunks using gin (search)`.execute(db);
  }
}

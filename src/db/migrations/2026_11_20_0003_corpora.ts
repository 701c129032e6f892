// Corpora, their documents and chunks, full-text indexes, document processing events and the
// durable jobs table. Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('corpora')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('default_agent_id', d.idType, (c) => c.references('agents.id').onDelete('set null'))
    .addColumn('conversation_starters', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('corpora_organization').on('corpora').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('corpora_name_unique').on('corpora').columns(['organization_id', 'name']).unique().execute();

  await db.schema
    .createTable('corpus_permissions')
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('corpus_permissions_pk', ['corpus_id', 'user_id'])
    .execute();
  await db.schema.createIndex('corpus_permissions_user').on('corpus_permissions').columns(['user_id', 'corpus_id']).execute();

  await db.schema
    .createTable('corpus_agents')
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('corpus_agents_pk', ['corpus_id', 'agent_id'])
    .execute();
  await db.schema.createIndex('corpus_agents_agent').on('corpus_agents').columns(['agent_id', 'corpus_id']).execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('access_url', 'text')
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('annotations', 'text')
    .addColumn('upload_from', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('failed_on', d.timestampType)
    .addColumn('error', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text')
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('step_timings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('indexed_on', d.timestampType)
    .addColumn('deleted_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('documents_corpus').on('documents').columns(['corpus_id', 'id']).execute();
  await db.schema.createIndex('documents_corpus_hash').on('documents').columns(['corpus_id', 'content_hash']).execute();

  await db.schema
    .createTable('document_tags')
    .addColumn('document_id', d.idType, (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_tags_pk', ['document_id', 'tag'])
    .execute();
  await db.schema.createIndex('document_tags_tag').on('document_tags').columns(['tag', 'document_id']).execute();

  await db.schema
    .createTable('document_events')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('document_id', d.idType, (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('is_failed', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_events_corpus').on('document_events').columns(['corpus_id', 'id']).execute();

  await db.schema
    .createTable('chunks')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('document_id', d.idType, (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('token_count', 'integer', (c) => c.notNull())
    .addColumn('page', 'integer')
    .addColumn('heading', 'text')
    .execute();
  // One chunk per position of a document: a repeated chunking step cannot leave duplicates.
  await db.schema.createIndex('chunks_document_position').on('chunks').columns(['document_id', 'position']).unique().execute();
  await db.schema.createIndex('chunks_corpus').on('chunks').columns(['corpus_id', 'id']).execute();

  if (d.name === 'sqlite') {
    // An external-content FTS5 index over chunks.text, kept in step by triggers; BM25 ranks it.
    await sql`create virtual table chunks_fts using fts5(text, content='chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger chunks_fts_insert after insert on chunks begin insert into chunks_fts(rowid, text) values (new.id, new.text); end`.execute(db);
    await sql`create trigger chunks_fts_delete after delete on chunks begin insert into chunks_fts(chunks_fts, rowid, text) values ('delete', old.id, old.text); end`.execute(db);
  } else {
    await sql`alter table chunks add column search tsvector generated always as (to_tsvector('english', text)) stored`.execute(db);
    await sql`create index chunks_search on chunks using gin (search)`.execute(db);
  }

  await db.schema
    .createTable('jobs')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('document_id', d.idType, (c) => c.references('documents.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', d.timestampType, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_on', d.timestampType)
    .addColumn('last_error', 'text')
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['status', 'run_after', 'id']).execute();
  await db.schema.createIndex('jobs_document').on('jobs').columns(['document_id']).execute();
}

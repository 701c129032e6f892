// Every query names the organization, and SQLite keeps no statistics unless ANALYZE runs: between an
// index (organization_id, id) or (organization_id, <time>) and one on the column that selects, say
// (thread_id, id), it took the organization's, which also gives the order, and read every row of the
// organization to keep the few it wanted. Two such reads ran often:
// - a corpus's page of documents and its counts by step (GET /corpora/{id}): every document of the
//   organization through the analytics' (organization_id, indexed_on), 26 ms for 200 documents of
//   10,200; 0.6 ms through (organization_id, corpus_id, id), which serves both equalities and the order;
// - a thread's responses, read at every question asked in it: every response of the organization
//   through (organization_id, id).
// The indexes that lead with corpus_id and thread_id stay, for what names them alone (the cascades when
// a corpus or a thread is deleted).
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('documents_organization_corpus').on('documents').columns(['organization_id', 'corpus_id', 'id']).execute();
  await db.schema.createIndex('agent_responses_organization_thread').on('agent_responses').columns(['organization_id', 'thread_id', 'id']).execute();
}

// Files given in a chat thread: their text, extracted when they are given, for the agent of that
// thread to read through an attachment tool. A file whose text cannot be had is refused at upload,
// so every row holds readable text. Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('thread_attachments')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('thread_id', d.idType, (c) => c.notNull().references('chat_threads.id').onDelete('cascade'))
    // Who gave the file: the thread's owner.
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id'))
    // The name the client sent, cleaned for display; never a path on disk.
    .addColumn('filename', 'text', (c) => c.notNull())
    // The kind of content as detected from the bytes (pdf, docx, html, md, txt, csv, json).
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('characters', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('thread_attachments_thread').on('thread_attachments').columns(['thread_id', 'id']).execute();
}

// E-mail indexing: the authorizations under way (one row per OAuth 2 authorization-code flow started:
// its nonce, the PKCE verifier sealed, when it expires and when its callback used it), the mailboxes
// linked to a corpus (the refresh token sealed, the folders or labels chosen, the sync cursor and the
// state of the last sync), one row per document a mailbox brought in (a message's text or one of its
// attachments), and the mailbox a mailbox.sync job syncs, on the jobs table.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('email_authorizations')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    // JSON array of folder ids / well-known names (Microsoft) or label ids (Google).
    .addColumn('folders', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('verifier_sealed', 'text', (c) => c.notNull())
    .addColumn('verifier_key_id', 'text', (c) => c.notNull())
    .addColumn('expires_on', d.timestampType, (c) => c.notNull())
    // Set by the one callback that may use it: a replayed state finds it set.
    .addColumn('used_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_authorizations_nonce').on('email_authorizations').columns(['nonce']).unique().execute();

  await db.schema
    .createTable('mailboxes')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('folders', 'text', (c) => c.notNull())
    .addColumn('refresh_token_sealed', 'text', (c) => c.notNull())
    .addColumn('refresh_token_key_id', 'text', (c) => c.notNull())
    // 'active', or 'reauthorization_required' once the provider refused the grant.
    .addColumn('authorization_status', 'text', (c) => c.notNull().defaultTo('active'))
    // JSON: the provider's incremental position (delta and page links per folder, or Gmail's history id).
    .addColumn('cursor', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('sync_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_status', 'text', (c) => c.notNull().defaultTo('never'))
    .addColumn('sync_started_on', d.timestampType)
    .addColumn('sync_finished_on', d.timestampType)
    .addColumn('sync_added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_error_code', 'text')
    .addColumn('sync_error', 'text')
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailboxes_unique').on('mailboxes').columns(['organization_id', 'corpus_id', 'provider', 'address']).unique().execute();

  await db.schema
    .createTable('mailbox_items')
    .addColumn('mailbox_id', d.idType, (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull())
    // '' for the message's own text, else the attachment's id.
    .addColumn('part', 'text', (c) => c.notNull())
    // The folder (Microsoft) whose sync brought it in; '' for Gmail, whose labels are read together.
    .addColumn('folder', 'text', (c) => c.notNull())
    // null when the part could not be brought in (too large, unreadable).
    .addColumn('document_id', d.idType, (c) => c.references('documents.id').onDelete('set null'))
    .addColumn('seen_sync', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailbox_items_unique').on('mailbox_items').columns(['mailbox_id', 'message_id', 'part']).unique().execute();

  await db.schema.alterTable('jobs').addColumn('mailbox_id', d.idType, (c) => c.references('mailboxes.id').onDelete('cascade')).execute();
  await db.schema.createIndex('jobs_mailbox').on('jobs').columns(['mailbox_id']).execute();
}

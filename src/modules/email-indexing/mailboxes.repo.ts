// Mailboxes linked to corpora, the authorizations that link them, the documents each brought in, and
// the sync jobs that run them.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, EmailAuthorizationsTable, MailboxItemsTable, MailboxesTable, MailProvider } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type EmailAuthorizationRow = Selectable<EmailAuthorizationsTable>;
export type MailboxRow = Selectable<MailboxesTable>;
export type MailboxWithCreator = MailboxRow & { created_by_email: string };
export type MailboxChange = Updateable<Omit<MailboxesTable, 'id' | 'organization_id' | 'created_on' | 'created_by'>>;
export type MailboxItem = Selectable<MailboxItemsTable>;

export class MailboxesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    // Every repository is given the dialect; this one needs none of its differences.
    _dialect: Dialect,
  ) {}

  async insertAuthorization(row: Insertable<EmailAuthorizationsTable>): Promise<void> {
    await this.db.insertInto('email_authorizations').values(row).execute();
  }

  findAuthorization(nonce: string): Promise<EmailAuthorizationRow | undefined> {
    return this.db.selectFrom('email_authorizations').selectAll().where('nonce', '=', nonce).executeTakeFirst();
  }

  /** Marks the authorization used unless it already was: false then (a replay). The update takes the row's lock. */
  async useAuthorization(id: number, at: string): Promise<boolean> {
    const result = await this.db.updateTable('email_authorizations').set({ used_on: at }).where('id', '=', id).where('used_on', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Authorizations whose time is long past: nothing can use them any more. */
  async dropExpiredAuthorizations(before: string): Promise<void> {
    await this.db.deleteFrom('email_authorizations').where('expires_on', '<', before).execute();
  }

  private selectOfOrganization(organizationId: number) {
    return this.db
      .selectFrom('mailboxes as m')
      .innerJoin('users as creator', 'creator.id', 'm.created_by')
      .where('m.organization_id', '=', organizationId)
      .selectAll('m')
      .select('creator.email as created_by_email');
  }

  list(organizationId: number, corpusIds: readonly number[] | undefined, window: ListWindow): Promise<ListSlice<MailboxWithCreator>> {
    let query = this.selectOfOrganization(organizationId);
    if (corpusIds !== undefined) query = corpusIds.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('m.corpus_id', 'in', corpusIds);
    return selectSlice(query.orderBy('m.id'), window);
  }

  find(organizationId: number, mailboxId: number): Promise<MailboxWithCreator | undefined> {
    return this.selectOfOrganization(organizationId).where('m.id', '=', mailboxId).executeTakeFirst();
  }

  findLinked(organizationId: number, corpusId: number, provider: MailProvider, address: string): Promise<MailboxRow | undefined> {
    return this.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('corpus_id', '=', corpusId)
      .where('provider', '=', provider)
      .where('address', '=', address)
      .executeTakeFirst();
  }

  async insert(row: Insertable<MailboxesTable>): Promise<{ id: number }> {
    return this.db.insertInto('mailboxes').values(row).returning('id').executeTakeFirstOrThrow();
  }

  async update(organizationId: number, mailboxId: number, fields: MailboxChange): Promise<void> {
    await this.updateOf(organizationId, mailboxId, fields).execute();
  }

  private updateOf(organizationId: number, mailboxId: number, fields: MailboxChange) {
    return this.db.updateTable('mailboxes').set(fields).where('organization_id', '=', organizationId).where('id', '=', mailboxId);
  }

  async delete(organizationId: number, mailboxId: number): Promise<void> {
    await this.db.deleteFrom('mailboxes').where('organization_id', '=', organizationId).where('id', '=', mailboxId).execute();
  }

  /** Writes only if no re-authorization came since `generation`: false then (the caller's sync is stale). */
  async updateOfGeneration(organizationId: number, mailboxId: number, generation: number, fields: MailboxChange): Promise<boolean> {
    const result = await this.updateOf(organizationId, mailboxId, fields).where('generation', '=', generation).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks a sync requested unless one is queued or running: false then. */
  async markQueued(organizationId: number, mailboxId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('mailboxes')
      .set({ sync_status: 'queued', next_sync_on: null })
      .where('organization_id', '=', organizationId)
      .where('id', '=', mailboxId)
      .where('sync_status', 'not in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Every sealed refresh token, for reseal-secrets. */
  listSealedTokens() {
    return this.db.selectFrom('mailboxes').select(['id', 'organization_id', 'refresh_token_sealed', 'refresh_token_key_id']).orderBy('id').execute();
  }

  async saveSealedToken(organizationId: number, mailboxId: number, sealed: string, keyId: string): Promise<void> {
    await this.update(organizationId, mailboxId, { refresh_token_sealed: sealed, refresh_token_key_id: keyId });
  }

  itemsOf(mailboxId: number, messageId: string): Promise<MailboxItem[]> {
    return this.db.selectFrom('mailbox_items').selectAll().where('mailbox_id', '=', mailboxId).where('message_id', '=', messageId).execute();
  }

  /** A message's items (its text and attachments), in one statement. */
  async saveItems(items: readonly MailboxItem[]): Promise<void> {
    if (items.length > 0) await this.db.insertInto('mailbox_items').values([...items]).execute();
  }

  /** The message was seen in this sync, in this folder (a message moved between two chosen folders stays). */
  async markSeen(mailboxId: number, messageId: string, folder: string, syncNumber: number): Promise<void> {
    await this.db.updateTable('mailbox_items').set({ seen_sync: syncNumber, folder }).where('mailbox_id', '=', mailboxId).where('message_id', '=', messageId).execute();
  }

  async deleteItems(mailboxId: number, messageId: string): Promise<void> {
    await this.db.deleteFrom('mailbox_items').where('mailbox_id', '=', mailboxId).where('message_id', '=', messageId).execute();
  }

  /** Messages of a folder a full listing did not see. */
  async unseenMessages(mailboxId: number, folder: string, syncNumber: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mailbox_items')
      .select('message_id')
      .distinct()
      .where('mailbox_id', '=', mailboxId)
      .where('folder', '=', folder)
      .where('seen_sync', '<', syncNumber)
      .execute();
    return rows.map((row) => row.message_id);
  }
}

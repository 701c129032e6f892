// Connectors of an organization, the library items each brought in, and the sync jobs that run them.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { ConnectorItemsTable, ConnectorsTable, DB } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type ConnectorRow = Selectable<ConnectorsTable>;
export type ConnectorWithAudit = ConnectorRow & { created_by_email: string; modified_by_email: string };
export type ConnectorChange = Updateable<Omit<ConnectorsTable, 'id' | 'organization_id' | 'created_on' | 'created_by'>>;
export type ConnectorItem = Selectable<ConnectorItemsTable>;

export class ConnectorsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private selectOfOrganization(organizationId: number) {
    return this.db
      .selectFrom('connectors as c')
      .innerJoin('users as creator', 'creator.id', 'c.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'c.modified_by')
      .where('c.organization_id', '=', organizationId)
      .selectAll('c')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  /** Connectors of the organization; `corpusIds` undefined: every corpus, else only those. */
  list(organizationId: number, corpusIds: readonly number[] | undefined, window: ListWindow): Promise<ListSlice<ConnectorWithAudit>> {
    let query = this.selectOfOrganization(organizationId);
    if (corpusIds !== undefined) query = corpusIds.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('c.corpus_id', 'in', corpusIds);
    return selectSlice(query.orderBy('c.id'), window);
  }

  /** Corpora of the organization on which the user holds write or manage (for the listing of a member). */
  async writableCorpora(organizationId: number, userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('corpus_permissions as p')
      .innerJoin('corpora as k', 'k.id', 'p.corpus_id')
      .select('p.corpus_id')
      .where('k.organization_id', '=', organizationId)
      .where('p.user_id', '=', userId)
      .where('p.permission', 'in', ['write', 'manage'])
      .execute();
    return rows.map((row) => row.corpus_id);
  }

  find(organizationId: number, connectorId: number): Promise<ConnectorWithAudit | undefined> {
    return this.selectOfOrganization(organizationId).where('c.id', '=', connectorId).executeTakeFirst();
  }

  async insert(connector: Insertable<ConnectorsTable>): Promise<{ id: number }> {
    try {
      return await this.db.insertInto('connectors').values(connector).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a connector', connector.name);
    }
  }

  async update(organizationId: number, connectorId: number, fields: ConnectorChange): Promise<void> {
    try {
      await this.db.updateTable('connectors').set(fields).where('organization_id', '=', organizationId).where('id', '=', connectorId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a connector', fields.name ?? '');
    }
  }

  async delete(organizationId: number, connectorId: number): Promise<void> {
    await this.db.deleteFrom('connectors').where('organization_id', '=', organizationId).where('id', '=', connectorId).execute();
  }

  /**
   * Marks a sync requested unless one is queued or running: false then. The update takes the row's
   * lock, so two requests at once cannot both pass.
   */
  async markQueued(organizationId: number, connectorId: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('connectors')
      .set({ sync_status: 'queued', modified_on: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', connectorId)
      .where('sync_status', 'not in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Every sealed client secret, for reseal-secrets. */
  listSealedSecrets() {
    return this.db.selectFrom('connectors').select(['id', 'organization_id', 'client_secret_sealed', 'client_secret_key_id']).orderBy('id').execute();
  }

  async saveSealedSecret(organizationId: number, connectorId: number, sealed: string, keyId: string): Promise<void> {
    await this.db
      .updateTable('connectors')
      .set({ client_secret_sealed: sealed, client_secret_key_id: keyId })
      .where('organization_id', '=', organizationId)
      .where('id', '=', connectorId)
      .execute();
  }

  findItem(connectorId: number, itemId: string): Promise<ConnectorItem | undefined> {
    return this.db.selectFrom('connector_items').selectAll().where('connector_id', '=', connectorId).where('item_id', '=', itemId).executeTakeFirst();
  }

  async saveItem(item: ConnectorItem): Promise<void> {
    const { connector_id, item_id, ...rest } = item;
    await this.db
      .insertInto('connector_items')
      .values(item)
      .onConflict((conflict) => conflict.columns(['connector_id', 'item_id']).doUpdateSet(rest))
      .execute();
  }

  async markSeen(connectorId: number, itemId: string, syncNumber: number): Promise<void> {
    await this.db.updateTable('connector_items').set({ seen_sync: syncNumber }).where('connector_id', '=', connectorId).where('item_id', '=', itemId).execute();
  }

  async deleteItem(connectorId: number, itemId: string): Promise<void> {
    await this.db.deleteFrom('connector_items').where('connector_id', '=', connectorId).where('item_id', '=', itemId).execute();
  }

  /** Items a full sync did not see: they are no longer in the library (or its scope). */
  unseenItems(connectorId: number, syncNumber: number): Promise<ConnectorItem[]> {
    return this.db.selectFrom('connector_items').selectAll().where('connector_id', '=', connectorId).where('seen_sync', '<', syncNumber).execute();
  }
}

import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, ToolsTable } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { ToolKind } from '../../tools/index.js';

export type NewTool = Insertable<ToolsTable>;
export type ToolChange = Updateable<Omit<ToolsTable, 'id' | 'organization_id' | 'kind' | 'created_on' | 'created_by'>>;

export interface ToolFilters {
  kind?: ToolKind | undefined;
  enabled?: boolean | undefined;
}

/** An organization's tools; names are unique in the organization (a unique index holds it). */
export class ToolsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private selectOfOrganization(organizationId: number) {
    return this.db
      .selectFrom('tools as t')
      .innerJoin('users as creator', 'creator.id', 't.created_by')
      .innerJoin('users as modifier', 'modifier.id', 't.modified_by')
      .where('t.organization_id', '=', organizationId)
      .selectAll('t')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  list(organizationId: number, filters: ToolFilters, window: ListWindow): Promise<ListSlice<ToolWithAudit>> {
    let query = this.selectOfOrganization(organizationId);
    if (filters.kind !== undefined) query = query.where('t.kind', '=', filters.kind);
    if (filters.enabled !== undefined) query = query.where('t.enabled', '=', filters.enabled ? 1 : 0);
    return selectSlice(query.orderBy('t.id'), window);
  }

  find(organizationId: number, toolId: number) {
    return this.selectOfOrganization(organizationId).where('t.id', '=', toolId).executeTakeFirst();
  }

  /** The enabled tools of the organization among these ids, for an answer. */
  enabledAmong(organizationId: number, toolIds: number[]) {
    if (toolIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tools').selectAll().where('organization_id', '=', organizationId).where('id', 'in', toolIds).where('enabled', '=', 1).orderBy('id').execute();
  }

  async existingIds(organizationId: number, toolIds: number[]): Promise<number[]> {
    if (toolIds.length === 0) return [];
    const rows = await this.db.selectFrom('tools').select('id').where('organization_id', '=', organizationId).where('id', 'in', toolIds).orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  /** The corpora of the organization among these ids (a retrieval tool names only those). */
  async existingCorpusIds(organizationId: number, corpusIds: number[]): Promise<number[]> {
    if (corpusIds.length === 0) return [];
    const rows = await this.db.selectFrom('corpora').select('id').where('organization_id', '=', organizationId).where('id', 'in', corpusIds).execute();
    return rows.map((row) => row.id);
  }

  async insert(tool: NewTool): Promise<{ id: number }> {
    try {
      return await this.db.insertInto('tools').values(tool).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a tool', tool.name);
    }
  }

  async update(organizationId: number, toolId: number, fields: ToolChange): Promise<void> {
    try {
      await this.db.updateTable('tools').set(fields).where('organization_id', '=', organizationId).where('id', '=', toolId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a tool', fields.name);
    }
  }

  async delete(organizationId: number, toolId: number): Promise<void> {
    await this.db.deleteFrom('tools').where('organization_id', '=', organizationId).where('id', '=', toolId).execute();
  }

  /** Every sealed secret of every organization, for re-sealing them under the current secret key. */
  listSealedSecrets() {
    return this.db
      .selectFrom('tools')
      .select(['id', 'organization_id', 'secret_sealed', 'secret_key_id'])
      .where('secret_sealed', 'is not', null)
      .orderBy('id')
      .execute();
  }

  /** Every tool's sealed headers (mcp), for re-sealing them under the current secret key. */
  listSealedHeaders() {
    return this.db
      .selectFrom('tools')
      .select(['id', 'organization_id', 'headers_sealed', 'headers_key_id'])
      .where('headers_sealed', 'is not', null)
      .orderBy('id')
      .execute();
  }

  async saveSealedHeaders(organizationId: number, toolId: number, sealed: string, keyId: string): Promise<void> {
    await this.db.updateTable('tools').set({ headers_sealed: sealed, headers_key_id: keyId }).where('organization_id', '=', organizationId).where('id', '=', toolId).execute();
  }

  async saveSealedSecret(organizationId: number, toolId: number, sealed: string, keyId: string): Promise<void> {
    await this.db.updateTable('tools').set({ secret_sealed: sealed, secret_key_id: keyId }).where('organization_id', '=', organizationId).where('id', '=', toolId).execute();
  }
}

export type ToolWithAudit = NonNullable<Awaited<ReturnType<ToolsRepo['find']>>>;

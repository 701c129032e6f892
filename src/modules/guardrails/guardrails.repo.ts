import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, GuardrailsTable } from '../../db/schema.js';
import type { GuardrailType } from '../../guardrails/index.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type NewGuardrail = Insertable<GuardrailsTable>;
export type GuardrailChange = Updateable<Omit<GuardrailsTable, 'id' | 'organization_id' | 'created_on' | 'created_by'>>;

/** An organization's guardrails; every query is scoped by organization. */
export class GuardrailsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private selectOfOrganization(organizationId: number) {
    return this.db
      .selectFrom('guardrails as g')
      .innerJoin('users as creator', 'creator.id', 'g.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'g.modified_by')
      .where('g.organization_id', '=', organizationId)
      .selectAll('g')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  list(organizationId: number, window: ListWindow, type: GuardrailType | undefined): Promise<ListSlice<GuardrailWithAudit>> {
    const query = this.selectOfOrganization(organizationId);
    return selectSlice((type === undefined ? query : query.where('g.type', '=', type)).orderBy('g.id'), window);
  }

  find(organizationId: number, guardrailId: number) {
    return this.selectOfOrganization(organizationId).where('g.id', '=', guardrailId).executeTakeFirst();
  }

  /** The organization's guardrails among these ids (what an agent answers under). */
  findMany(organizationId: number, guardrailIds: readonly number[]) {
    if (guardrailIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('guardrails').selectAll().where('organization_id', '=', organizationId).where('id', 'in', [...guardrailIds]).execute();
  }

  async existing(organizationId: number, guardrailIds: readonly number[]): Promise<number[]> {
    if (guardrailIds.length === 0) return [];
    const rows = await this.db.selectFrom('guardrails').select('id').where('organization_id', '=', organizationId).where('id', 'in', [...guardrailIds]).execute();
    return rows.map((row) => row.id);
  }

  async insert(guardrail: NewGuardrail): Promise<{ id: number }> {
    try {
      return await this.db.insertInto('guardrails').values(guardrail).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a guardrail', guardrail.name);
    }
  }

  async update(organizationId: number, guardrailId: number, fields: GuardrailChange): Promise<void> {
    try {
      await this.db.updateTable('guardrails').set(fields).where('organization_id', '=', organizationId).where('id', '=', guardrailId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a guardrail', fields.name);
    }
  }

  async delete(organizationId: number, guardrailId: number): Promise<void> {
    await this.db.deleteFrom('guardrails').where('organization_id', '=', organizationId).where('id', '=', guardrailId).execute();
  }
}

export type GuardrailWithAudit = NonNullable<Awaited<ReturnType<GuardrailsRepo['find']>>>;
export type GuardrailStoredRow = Awaited<ReturnType<GuardrailsRepo['findMany']>>[number];

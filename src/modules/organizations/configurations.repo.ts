import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import type { DB, OrganizationConfigurationsTable } from '../../db/schema.js';
import { rowLimit, type ListWindow } from '../../pagination.js';

/** Named settings objects of an organization; at most one is active (a unique index holds it). */
export class ConfigurationsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private ofOrganization(organizationId: number) {
    return this.db
      .selectFrom('organization_configurations as c')
      .innerJoin('users as creator', 'creator.id', 'c.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'c.modified_by')
      .where('c.organization_id', '=', organizationId);
  }

  private selectConfiguration(query: ReturnType<ConfigurationsRepo['ofOrganization']>) {
    return query.selectAll('c').select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  async list(organizationId: number, window: ListWindow) {
    const { total } = await this.ofOrganization(organizationId).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await this.selectConfiguration(this.ofOrganization(organizationId)).orderBy('c.id').limit(rowLimit(window)).offset(window.offset).execute();
    return { rows, total: Number(total) };
  }

  find(organizationId: number, configurationId: number) {
    return this.selectConfiguration(this.ofOrganization(organizationId)).where('c.id', '=', configurationId).executeTakeFirst();
  }

  findActive(organizationId: number) {
    return this.selectConfiguration(this.ofOrganization(organizationId)).where('c.activated_on', 'is not', null).executeTakeFirst();
  }

  async insert(configuration: Insertable<OrganizationConfigurationsTable>) {
    try {
      return await this.db.insertInto('organization_configurations').values(configuration).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a configuration', configuration.name);
    }
  }

  async update(organizationId: number, configurationId: number, fields: Updateable<OrganizationConfigurationsTable>): Promise<void> {
    try {
      await this.db
        .updateTable('organization_configurations')
        .set(fields)
        .where('organization_id', '=', organizationId)
        .where('id', '=', configurationId)
        .execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a configuration', fields.name);
    }
  }

  /** Makes one configuration the active one; run in a transaction, so that no moment has two. */
  async activate(organizationId: number, configurationId: number, at: string, userId: number): Promise<void> {
    await this.db
      .updateTable('organization_configurations')
      .set({ activated_on: null })
      .where('organization_id', '=', organizationId)
      .where('id', '!=', configurationId)
      .where('activated_on', 'is not', null)
      .execute();
    await this.db
      .updateTable('organization_configurations')
      .set((eb) => ({ activated_on: eb.fn.coalesce('activated_on', eb.val(at)), modified_on: at, modified_by: userId }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', configurationId)
      .execute();
  }
}

export type ConfigurationWithAudit = NonNullable<Awaited<ReturnType<ConfigurationsRepo['find']>>>;

import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, OrganizationConfigurationsTable } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

/** A configuration's settings: a JSON object, stored as text. */
export type Settings = Record<string, unknown>;
type WithSettings<Row> = Omit<Row, 'settings'> & { settings: Settings };
export type NewConfiguration = WithSettings<Insertable<OrganizationConfigurationsTable>>;
export type ConfigurationChange = Omit<Updateable<OrganizationConfigurationsTable>, 'settings'> & { settings?: Settings };

function decodeSettings<Row extends { settings: string }>(row: Row): WithSettings<Row> {
  return { ...row, settings: JSON.parse(row.settings) as Settings };
}

function encodeChange({ settings, ...fields }: ConfigurationChange): Updateable<OrganizationConfigurationsTable> {
  return settings === undefined ? fields : { ...fields, settings: JSON.stringify(settings) };
}

/** Named settings objects of an organization; at most one is active (a unique index holds it). */
export class ConfigurationsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private selectOfOrganization(organizationId: number) {
    return this.db
      .selectFrom('organization_configurations as c')
      .innerJoin('users as creator', 'creator.id', 'c.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'c.modified_by')
      .where('c.organization_id', '=', organizationId)
      .selectAll('c')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  async list(organizationId: number, window: ListWindow): Promise<ListSlice<ConfigurationWithAudit>> {
    const { items, total } = await selectSlice(this.selectOfOrganization(organizationId).orderBy('c.id'), window);
    return { items: items.map(decodeSettings), total };
  }

  async find(organizationId: number, configurationId: number) {
    const row = await this.selectOfOrganization(organizationId).where('c.id', '=', configurationId).executeTakeFirst();
    return row && decodeSettings(row);
  }

  async findActive(organizationId: number) {
    const row = await this.selectOfOrganization(organizationId).where('c.activated_on', 'is not', null).executeTakeFirst();
    return row && decodeSettings(row);
  }

  async insert(configuration: NewConfiguration) {
    try {
      return await this.db
        .insertInto('organization_configurations')
        .values({ ...configuration, settings: JSON.stringify(configuration.settings) })
        .returning('id')
        .executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a configuration', configuration.name);
    }
  }

  async update(organizationId: number, configurationId: number, fields: ConfigurationChange): Promise<void> {
    try {
      await this.db
        .updateTable('organization_configurations')
        .set(encodeChange(fields))
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

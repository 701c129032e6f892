import type { Kysely, Updateable } from 'kysely';
import type { DB, ModelDeploymentsTable, OrganizationsTable } from '../../db/schema.js';

export type ModelDeploymentFields = Pick<
  Updateable<ModelDeploymentsTable>,
  'chat_llm_configuration_id' | 'embedding_llm_configuration_id' | 'image_llm_configuration_id' | 'judge_llm_configuration_id'
>;

export class OrganizationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async count(): Promise<number> {
    const row = await this.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  findById(id: number) {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The organization with the e-mail of whoever changed it last. */
  findWithAudit(id: number) {
    return this.db
      .selectFrom('organizations as o')
      .leftJoin('users as modifier', 'modifier.id', 'o.modified_by')
      .selectAll('o')
      .select('modifier.email as modified_by_email')
      .where('o.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Takes the organization's row lock until the transaction ends (SQLite has a single writer anyway):
   * serialises changes that must see each other, such as two owners demoting each other at once.
   */
  async lock(id: number): Promise<void> {
    await this.db.updateTable('organizations').set((eb) => ({ name: eb.ref('name') })).where('id', '=', id).execute();
  }

  insert(name: string, now: string) {
    return this.db.insertInto('organizations').values({ name, created_on: now, modified_on: now }).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, fields: Updateable<OrganizationsTable>): Promise<void> {
    await this.db.updateTable('organizations').set(fields).where('id', '=', id).execute();
  }

  findModelDeployment(organizationId: number) {
    return this.db
      .selectFrom('model_deployments as m')
      .innerJoin('users as modifier', 'modifier.id', 'm.modified_by')
      .selectAll('m')
      .select('modifier.email as modified_by_email')
      .where('m.organization_id', '=', organizationId)
      .executeTakeFirst();
  }

  async saveModelDeployment(organizationId: number, fields: ModelDeploymentFields, at: string, userId: number): Promise<void> {
    const changed = { ...fields, modified_on: at, modified_by: userId };
    await this.db
      .insertInto('model_deployments')
      .values({ organization_id: organizationId, ...changed })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(changed))
      .execute();
  }
}

export type OrganizationWithAudit = NonNullable<Awaited<ReturnType<OrganizationsRepo['findWithAudit']>>>;
export type ModelDeploymentRow = NonNullable<Awaited<ReturnType<OrganizationsRepo['findModelDeployment']>>>;

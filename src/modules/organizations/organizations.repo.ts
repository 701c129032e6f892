import type { Kysely, Updateable } from 'kysely';
import { precompiled } from '../../db/precompiled.js';
import type { DB, ModelDeploymentsTable, OrganizationsTable } from '../../db/schema.js';

export const MODEL_PURPOSES = ['chat', 'embedding', 'image', 'judge'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];
/** The LLM configuration chosen for each purpose (null: none); a purpose left out keeps its choice. */
export type ModelChoices = { [P in ModelPurpose]?: number | null };

const columnOf = (purpose: ModelPurpose) => `${purpose}_llm_configuration_id` as const;

/** Read by every `GET /api/v2/users/me`: compiled once (src/db/precompiled.ts). */
const organizationById = precompiled(1, (db: Kysely<DB>, id: number) => db.selectFrom('organizations').selectAll().where('id', '=', id));

export class OrganizationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async count(): Promise<number> {
    const row = await this.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The organization made on the first start (the lowest id): the one a server normally has. */
  async firstId(): Promise<number | undefined> {
    const row = await this.db.selectFrom('organizations').select('id').orderBy('id').limit(1).executeTakeFirst();
    return row?.id;
  }

  async findById(id: number) {
    return (await organizationById(this.db, id))[0];
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
      .select(['m.chat_llm_configuration_id as chat', 'm.embedding_llm_configuration_id as embedding', 'm.image_llm_configuration_id as image', 'm.judge_llm_configuration_id as judge'])
      .select(['m.modified_on', 'modifier.email as modified_by_email'])
      .where('m.organization_id', '=', organizationId)
      .executeTakeFirst();
  }

  async saveModelDeployment(organizationId: number, choices: ModelChoices, at: string, userId: number): Promise<void> {
    const columns: Partial<Pick<ModelDeploymentsTable, ReturnType<typeof columnOf>>> = {};
    for (const purpose of MODEL_PURPOSES) {
      const choice = choices[purpose];
      if (choice !== undefined) columns[columnOf(purpose)] = choice;
    }
    const changed = { ...columns, modified_on: at, modified_by: userId };
    await this.db
      .insertInto('model_deployments')
      .values({ organization_id: organizationId, ...changed })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(changed))
      .execute();
  }
}

export type OrganizationWithAudit = NonNullable<Awaited<ReturnType<OrganizationsRepo['findWithAudit']>>>;
export type ModelDeploymentRow = NonNullable<Awaited<ReturnType<OrganizationsRepo['findModelDeployment']>>>;

import type { Insertable, Kysely, Updateable } from 'kysely';
import { conflictIfDuplicate, nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import { precompiled } from '../../db/precompiled.js';
import type { DB, LlmConfigurationsTable } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type NewLlmConfiguration = Insertable<LlmConfigurationsTable>;
export type LlmConfigurationChange = Updateable<Omit<LlmConfigurationsTable, 'id' | 'organization_id' | 'created_on' | 'created_by'>>;

function ofOrganization(db: Kysely<DB>, organizationId: number) {
  return db
    .selectFrom('llm_configurations as l')
    .innerJoin('users as creator', 'creator.id', 'l.created_by')
    .innerJoin('users as modifier', 'modifier.id', 'l.modified_by')
    .where('l.organization_id', '=', organizationId)
    .selectAll('l')
    .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
}

// Read on every ask (the configuration that answers it): compiled once (src/db/precompiled.ts).
const configurationById = precompiled(2, (db: Kysely<DB>, organizationId: number, configurationId: number) => ofOrganization(db, organizationId).where('l.id', '=', configurationId));
const defaultConfiguration = precompiled(1, (db: Kysely<DB>, organizationId: number) => ofOrganization(db, organizationId).where('l.is_default', '=', 1));

/** An organization's LLM configurations; at most one is the default (a partial unique index holds it). */
export class LlmConfigurationsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  list(organizationId: number, window: ListWindow): Promise<ListSlice<LlmConfigurationWithAudit>> {
    return selectSlice(ofOrganization(this.db, organizationId).orderBy('l.id'), window);
  }

  async find(organizationId: number, configurationId: number) {
    return (await configurationById(this.db, organizationId, configurationId))[0];
  }

  async findDefault(organizationId: number) {
    return (await defaultConfiguration(this.db, organizationId))[0];
  }

  async hasAny(organizationId: number): Promise<boolean> {
    const row = await this.db.selectFrom('llm_configurations').select('id').where('organization_id', '=', organizationId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async insert(configuration: NewLlmConfiguration): Promise<{ id: number }> {
    try {
      return await this.db.insertInto('llm_configurations').values(configuration).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'an LLM configuration', configuration.name);
    }
  }

  async update(organizationId: number, configurationId: number, fields: LlmConfigurationChange): Promise<void> {
    try {
      await this.db.updateTable('llm_configurations').set(fields).where('organization_id', '=', organizationId).where('id', '=', configurationId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'an LLM configuration', fields.name);
    }
  }

  /** Sets the default flag; a default made at the same moment by another request is a conflict, not a name clash. */
  async markDefault(organizationId: number, configurationId: number): Promise<void> {
    try {
      await this.db.updateTable('llm_configurations').set({ is_default: 1 }).where('organization_id', '=', organizationId).where('id', '=', configurationId).execute();
    } catch (error) {
      throw conflictIfDuplicate(this.dialect, error, 'Another LLM configuration became the default at the same moment; try again');
    }
  }

  /** Clears the default flag of every configuration of the organization but one; run before setting it. */
  async clearDefault(organizationId: number, exceptId: number): Promise<void> {
    await this.db
      .updateTable('llm_configurations')
      .set({ is_default: 0 })
      .where('organization_id', '=', organizationId)
      .where('id', '!=', exceptId)
      .where('is_default', '=', 1)
      .execute();
  }

  async delete(organizationId: number, configurationId: number): Promise<void> {
    await this.db.deleteFrom('llm_configurations').where('organization_id', '=', organizationId).where('id', '=', configurationId).execute();
  }

  /** Agents (not deleted) that answer with this configuration. */
  agentsNaming(organizationId: number, configurationId: number) {
    return this.db
      .selectFrom('agents')
      .select(['id', 'name'])
      .where('organization_id', '=', organizationId)
      .where('llm_configuration_id', '=', configurationId)
      .where('deleted_on', 'is', null)
      .orderBy('id')
      .execute();
  }

  /** Clears the organization's model-deployment choices and deleted agents' references that name it. */
  async releaseReferences(organizationId: number, configurationId: number): Promise<void> {
    for (const column of ['chat_llm_configuration_id', 'embedding_llm_configuration_id', 'image_llm_configuration_id', 'judge_llm_configuration_id'] as const) {
      await this.db.updateTable('model_deployments').set({ [column]: null }).where('organization_id', '=', organizationId).where(column, '=', configurationId).execute();
    }
    await this.db
      .updateTable('agents')
      .set({ llm_configuration_id: null })
      .where('organization_id', '=', organizationId)
      .where('llm_configuration_id', '=', configurationId)
      .execute();
  }

  /** Every sealed key of every organization, for re-sealing them under the current secret key. */
  listSealedKeys() {
    return this.db
      .selectFrom('llm_configurations')
      .select(['id', 'organization_id', 'api_key_sealed', 'api_key_key_id'])
      .where('api_key_sealed', 'is not', null)
      .orderBy('id')
      .execute();
  }

  async saveSealedKey(organizationId: number, configurationId: number, sealed: string, keyId: string): Promise<void> {
    await this.db
      .updateTable('llm_configurations')
      .set({ api_key_sealed: sealed, api_key_key_id: keyId })
      .where('organization_id', '=', organizationId)
      .where('id', '=', configurationId)
      .execute();
  }
}

export type LlmConfigurationWithAudit = NonNullable<Awaited<ReturnType<LlmConfigurationsRepo['find']>>>;

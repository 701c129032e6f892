// Organization configurations: named settings objects, one active at a time. Activating one
// deactivates the others in the same transaction.
import { now } from '../../clock.js';
import { NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { ConfigurationWithAudit } from './configurations.repo.js';
import { organizationPolicy } from './organization.policy.js';
import { requireOwnOrganization } from './organizations.service.js';
import type { ConfigurationView, CreateConfigurationInput, UpdateConfigurationInput } from './configurations.schemas.js';

function presentConfiguration(row: ConfigurationWithAudit): ConfigurationView {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    settings: row.settings,
    is_active: row.activated_on !== null,
    activated_on: row.activated_on,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

export class ConfigurationsService {
  constructor(private readonly store: UnitOfWork) {}

  private async requireConfiguration(actor: Actor, organizationId: number, configurationId: number, repos: Repositories = this.store.repos) {
    requireOwnOrganization(actor, organizationId);
    const row = await repos.configurations.find(organizationId, configurationId);
    if (!row) throw new NotFound('configuration', configurationId);
    return row;
  }

  async list(actor: Actor, organizationId: number, window: ListWindow): Promise<ListSlice<ConfigurationView>> {
    requireOwnOrganization(actor, organizationId);
    const { items, total } = await this.store.repos.configurations.list(organizationId, window);
    return { items: items.map(presentConfiguration), total };
  }

  async active(actor: Actor, organizationId: number): Promise<ConfigurationView> {
    requireOwnOrganization(actor, organizationId);
    const row = await this.store.repos.configurations.findActive(organizationId);
    if (!row) throw new NotFound('active_configuration');
    return presentConfiguration(row);
  }

  async create(actor: Actor, organizationId: number, input: CreateConfigurationInput): Promise<ConfigurationView> {
    requireOwnOrganization(actor, organizationId);
    authorize(organizationPolicy.mayChange(actor), 'Only owners and admins may create configurations');
    const at = now();
    return this.store.transaction(async ({ configurations }) => {
      const { id } = await configurations.insert({
        organization_id: organizationId,
        name: input.name,
        settings: input.settings ?? {},
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      if (input.activate) await configurations.activate(organizationId, id, at, actor.userId);
      return presentConfiguration((await configurations.find(organizationId, id))!);
    });
  }

  async update(actor: Actor, organizationId: number, configurationId: number, input: UpdateConfigurationInput): Promise<ConfigurationView> {
    await this.requireConfiguration(actor, organizationId, configurationId);
    authorize(organizationPolicy.mayChange(actor), 'Only owners and admins may change configurations');
    const fields = sentFields(input, ['name', 'settings']);
    await this.store.repos.configurations.update(organizationId, configurationId, { ...fields, modified_on: now(), modified_by: actor.userId });
    return presentConfiguration(await this.requireConfiguration(actor, organizationId, configurationId));
  }

  async activate(actor: Actor, organizationId: number, configurationId: number): Promise<ConfigurationView> {
    await this.requireConfiguration(actor, organizationId, configurationId);
    authorize(organizationPolicy.mayChange(actor), 'Only owners and admins may activate configurations');
    return this.store.transaction(async (repos) => {
      await repos.configurations.activate(organizationId, configurationId, now(), actor.userId);
      return presentConfiguration(await this.requireConfiguration(actor, organizationId, configurationId, repos));
    });
  }
}

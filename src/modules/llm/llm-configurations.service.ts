// LLM configurations of an organization: which models its agents answer with, and the resolver the
// runtime asks for a configuration's chat model. One default at most: making one the default clears
// the others in the same transaction, and an organization's first configuration is its default.
// Keys are sealed at rest (src/secrets/) and never leave the server.
import { now } from '../../clock.js';
import { Conflict, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { EgressClient } from '../../net/egress.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { ChatModel } from '../../providers/chat/chat-model.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import { requireOwnOrganization } from '../organizations/organizations.service.js';
import { presentLlmConfiguration } from './llm-configuration.presenter.js';
import type { LlmConfigurationWithAudit } from './llm-configurations.repo.js';
import { DEFAULT_MAX_ANSWER_TOKENS, type CreateLlmConfigurationInput, type LlmConfigurationView, type LlmTestResult, type UpdateLlmConfigurationInput } from './llm-configurations.schemas.js';
import { testChatModel } from './configuration-test.js';
import { LlmModels, resealedKey, type ModelOptions } from './llm-models.js';
import { checkEndpoint, keyColumns } from './llm-settings.js';
import { llmPolicy } from './llm.policy.js';

/** What the runtime needs of a configuration to answer with it and to price the answer. */
export interface ResolvedModel {
  configuration: Pick<LlmConfigurationWithAudit, 'id' | 'name' | 'provider' | 'model' | 'input_price_per_million' | 'output_price_per_million' | 'context_window' | 'max_answer_tokens'>;
  chatModel: ChatModel;
}

const SETTINGS = ['name', 'provider', 'model', 'base_url', 'api_version', 'input_price_per_million', 'output_price_per_million', 'context_window', 'max_answer_tokens'] as const;

export class LlmConfigurationsService {
  private readonly models: LlmModels;

  constructor(
    private readonly store: UnitOfWork,
    private readonly secrets: SecretBox,
    egress: EgressClient,
    options: ModelOptions,
  ) {
    this.models = new LlmModels(secrets, egress, options);
  }

  private async requireConfiguration(actor: Actor, organizationId: number, configurationId: number, repos: Repositories = this.store.repos) {
    requireOwnOrganization(actor, organizationId);
    const row = await repos.llmConfigurations.find(organizationId, configurationId);
    if (!row) throw new NotFound('llm_configuration', configurationId);
    return row;
  }

  async list(actor: Actor, organizationId: number, window: ListWindow): Promise<ListSlice<LlmConfigurationView>> {
    requireOwnOrganization(actor, organizationId);
    const { items, total } = await this.store.repos.llmConfigurations.list(organizationId, window);
    return { items: items.map((row) => presentLlmConfiguration(row, actor)), total };
  }

  async get(actor: Actor, organizationId: number, configurationId: number): Promise<LlmConfigurationView> {
    return presentLlmConfiguration(await this.requireConfiguration(actor, organizationId, configurationId), actor);
  }

  async create(actor: Actor, organizationId: number, input: CreateLlmConfigurationInput): Promise<LlmConfigurationView> {
    requireOwnOrganization(actor, organizationId);
    authorize(llmPolicy.mayManage(actor), 'Only owners and admins may add LLM configurations');
    checkEndpoint(input.provider, input.base_url ?? null);
    const at = now();
    const key = keyColumns(this.secrets, input.api_key ?? null);
    return this.store.transaction(async (repos) => {
      const makeDefault = input.is_default === true || !(await repos.llmConfigurations.hasAny(organizationId));
      const { id } = await repos.llmConfigurations.insert({
        organization_id: organizationId,
        name: input.name,
        provider: input.provider,
        model: input.model,
        base_url: input.base_url ?? null,
        api_version: input.api_version ?? null,
        ...key,
        input_price_per_million: input.input_price_per_million ?? null,
        output_price_per_million: input.output_price_per_million ?? null,
        context_window: input.context_window ?? null,
        max_answer_tokens: input.max_answer_tokens ?? DEFAULT_MAX_ANSWER_TOKENS,
        is_default: 0,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      if (makeDefault) await this.makeDefault(repos, organizationId, id);
      return presentLlmConfiguration(await this.requireConfiguration(actor, organizationId, id, repos), actor);
    });
  }

  async update(actor: Actor, organizationId: number, configurationId: number, input: UpdateLlmConfigurationInput): Promise<LlmConfigurationView> {
    const current = await this.requireConfiguration(actor, organizationId, configurationId);
    authorize(llmPolicy.mayManage(actor), 'Only owners and admins may change LLM configurations');
    const fields = sentFields(input, SETTINGS);
    checkEndpoint(fields.provider ?? current.provider, input.base_url === undefined ? current.base_url : input.base_url);
    // A key kept as it is moves to the current secret key now, if it can be opened.
    const key = input.api_key === undefined ? resealedKey(this.secrets, current) : keyColumns(this.secrets, input.api_key);
    return this.store.transaction(async (repos) => {
      await repos.llmConfigurations.update(organizationId, configurationId, { ...fields, ...key, modified_on: now(), modified_by: actor.userId });
      if (input.is_default === true) await this.makeDefault(repos, organizationId, configurationId);
      if (input.is_default === false) await repos.llmConfigurations.update(organizationId, configurationId, { is_default: 0 });
      return presentLlmConfiguration(await this.requireConfiguration(actor, organizationId, configurationId, repos), actor);
    });
  }

  /** Refused (409) while agents answer with it; the organization's model choices naming it are cleared. */
  async remove(actor: Actor, organizationId: number, configurationId: number): Promise<{ id: number }> {
    await this.requireConfiguration(actor, organizationId, configurationId);
    authorize(llmPolicy.mayManage(actor), 'Only owners and admins may remove LLM configurations');
    return this.store.transaction(async (repos) => {
      const agents = await repos.llmConfigurations.agentsNaming(organizationId, configurationId);
      if (agents.length > 0) {
        const names = agents.map((agent) => `"${agent.name}" (${agent.id})`).join(', ');
        throw new Conflict(`LLM configuration ${configurationId} is used by ${agents.length === 1 ? 'agent' : 'agents'} ${names}: choose another configuration for them first`);
      }
      await repos.llmConfigurations.releaseReferences(organizationId, configurationId);
      await repos.llmConfigurations.delete(organizationId, configurationId);
      return { id: configurationId };
    });
  }

  /** One real, small call; 200 whether or not the model answered. */
  async testConfiguration(actor: Actor, organizationId: number, configurationId: number): Promise<LlmTestResult> {
    const row = await this.requireConfiguration(actor, organizationId, configurationId);
    authorize(llmPolicy.mayManage(actor), 'Only owners and admins may test LLM configurations');
    // No retries: the test says what the provider answered the first time.
    return testChatModel(this.models.newChatModel(row, { maxRetries: 0 }));
  }

  /**
   * The configuration an agent answers with: the one named, or the organization's default when null.
   * undefined when there is none (or the id names none of this organization's): the runtime then
   * answers offline.
   */
  async resolveForAnswering(organizationId: number, llmConfigurationId: number | null): Promise<ResolvedModel | undefined> {
    const { llmConfigurations } = this.store.repos;
    const row = llmConfigurationId === null ? await llmConfigurations.findDefault(organizationId) : await llmConfigurations.find(organizationId, llmConfigurationId);
    if (!row) return undefined;
    const { id, name, provider, model, input_price_per_million, output_price_per_million, context_window, max_answer_tokens } = row;
    return {
      configuration: { id, name, provider, model, input_price_per_million, output_price_per_million, context_window, max_answer_tokens },
      chatModel: this.models.chatModelOf(row),
    };
  }

  private async makeDefault(repos: Repositories, organizationId: number, configurationId: number): Promise<void> {
    await repos.llmConfigurations.clearDefault(organizationId, configurationId);
    await repos.llmConfigurations.markDefault(organizationId, configurationId);
  }
}

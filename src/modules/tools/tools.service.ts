// Tools of an organization: API operations, web search, retrieval, attachments. Owners and admins
// make, change, enable, disable, remove and test them; everyone in the organization sees which exist.
// API tools are gated by the `api-tools` flag (making, changing, testing them; and the runtime leaves
// them out while it is off). Secrets are sealed at rest and never leave the server. The runtime asks
// `runnableTools` for the tools an answer may call.
import { now } from '../../clock.js';
import { BadRequest, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import { AllowList } from '../../net/allowed-hosts.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { buildRunnableTool, findToolTemplate, type RunnableTool, type StoredTool, type ToolDeps, type ToolKind, toolKind, type ToolTemplate, toolTemplates, unusableTool } from '../../tools/index.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { requireOwnOrganization } from '../organizations/organizations.service.js';
import { apiToolDraft, requireOneWay, type ToolDraft } from './api-tool-drafts.js';
import { nameTakenRefusal, skippedOperation, type CheckedOperation, type OperationOutcome } from './imported-operations.js';
import { importOperationsNow, type ImportLimits } from './openapi-import.js';
import { runToolOnce, type TestRunOptions } from './tool-test-run.js';
import { presentTool } from './tool.presenter.js';
import { toolPolicy } from './tool.policy.js';
import { resealedSecret, sealedSecretOf, secretColumns } from './tool-secrets.js';
import { checkedSettings } from './tool-settings.js';
import type { ToolFilters, ToolWithAudit } from './tools.repo.js';
import type { CreateApiToolInput, CreateToolInput, ImportedTools, ToolTestResult, ToolView, UpdateToolInput } from './tools.schemas.js';
import type { ToolRow } from '../../db/schema.js';

/** A secret's sealed columns, as written on a tool. */
type SealedColumns = Partial<Pick<ToolRow, 'secret_sealed' | 'secret_key_id' | 'secret_hint'>>;

export interface ToolsOptions extends TestRunOptions {
  /** Hosts the egress client may reach although private (EGRESS_ALLOWED_HOSTS): tool URLs are judged by the same list. */
  allowedHosts: readonly string[];
  /** Bounds of an imported OpenAPI document (LIMIT_TOOL_IMPORT_…). */
  importLimits: ImportLimits;
}

export class ToolsService {
  private readonly allowList: AllowList;

  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
    private readonly secrets: SecretBox,
    private readonly deps: ToolDeps,
    private readonly options: ToolsOptions,
  ) {
    this.allowList = new AllowList(options.allowedHosts);
    // Checks the templates at start: an invalid one stops the server here, not a user later.
    toolTemplates();
  }

  private async requireTool(actor: Actor, organizationId: number, toolId: number, repos: Repositories = this.store.repos): Promise<ToolWithAudit> {
    requireOwnOrganization(actor, organizationId);
    const row = await repos.tools.find(organizationId, toolId);
    if (!row) throw new NotFound('tool', toolId);
    return row;
  }

  /** 403 unless the caller manages tools and, for API tools, the organization has them turned on. */
  private async requireManager(actor: Actor, kind: ToolKind, doing: string): Promise<void> {
    authorize(toolPolicy.mayManage(actor), `Only owners and admins may ${doing} tools`);
    if (kind === 'api') await this.flags.require(actor, 'api-tools');
  }

  private settingsContext(organizationId: number, hasSecret: boolean, at: string) {
    return { hasSecret, allowList: this.allowList, at, existingCorpora: (ids: number[]) => this.store.repos.tools.existingCorpusIds(organizationId, ids) };
  }

  async list(actor: Actor, organizationId: number, filters: ToolFilters, window: ListWindow): Promise<ListSlice<ToolView>> {
    requireOwnOrganization(actor, organizationId);
    const { items, total } = await this.store.repos.tools.list(organizationId, filters, window);
    return { items: items.map((row) => presentTool(row, actor)), total };
  }

  async get(actor: Actor, organizationId: number, toolId: number): Promise<ToolView> {
    return presentTool(await this.requireTool(actor, organizationId, toolId), actor);
  }

  /** The API tool templates that ship with the server, by title; everyone may read them. */
  templates(window: ListWindow): ListSlice<ToolTemplate> {
    const all = toolTemplates();
    return { items: all.slice(window.offset, window.limit === undefined ? undefined : window.offset + window.limit), total: all.length };
  }

  template(templateId: string): ToolTemplate {
    const template = findToolTemplate(templateId);
    if (template === undefined) throw new NotFound('tool_template', templateId);
    return template;
  }

  /** From settings, a template, or a document: one tool, or (from a document) one per operation that could be made. */
  async createApi(actor: Actor, organizationId: number, input: CreateApiToolInput): Promise<ToolView | ImportedTools> {
    await this.requireImporter(actor, organizationId);
    requireOneWay(input);
    if (input.openapi !== undefined) {
      const sealed = secretColumns(this.secrets, input.secret);
      const deps = { egress: this.deps.egress, timeoutMs: this.options.timeoutMs, limits: this.options.importLimits };
      const outcomes = await importOperationsNow(input, deps, {
        check: (position) => this.checkImported(organizationId, input.secret !== undefined, `/body/openapi/operations/${position}`),
        save: (checked) => this.store.transaction((repos) => this.saveImported(actor, organizationId, checked, sealed, input.enabled !== false, repos)),
      });
      const imported = outcomes.filter((outcome) => outcome.status === 'imported');
      const items = await Promise.all(imported.map(async (outcome) => presentTool(await this.requireTool(actor, organizationId, outcome.tool_id!), actor)));
      return { items, skipped: outcomes.filter((outcome) => outcome.status === 'skipped').map(({ refusal: _refusal, ...report }) => report) };
    }
    const draft = apiToolDraft(input);
    const config = await checkedSettings('api', draft.config, this.settingsContext(organizationId, input.secret !== undefined, draft.at));
    return (await this.insert(actor, organizationId, 'api', [{ ...draft, config }], input.secret, input.enabled))[0]!;
  }

  /** 404 outside the caller's organization; 403 unless the caller may add API tools there. */
  async requireImporter(actor: Actor, organizationId: number): Promise<void> {
    requireOwnOrganization(actor, organizationId);
    await this.requireManager(actor, 'api', 'add');
  }

  /** An imported operation's settings checked as any API tool's, with or without a secret; problems' pointers under `at`. */
  checkImported(organizationId: number, hasSecret: boolean, at: string): (config: Record<string, unknown>) => Promise<Record<string, unknown>> {
    return (config) => checkedSettings('api', config, this.settingsContext(organizationId, hasSecret, at));
  }

  /**
   * Saves the tools of checked operations with `repos` (the caller's transaction), as the actor, the
   * secret's sealed columns on each; a name the organization already has is skipped, not an error.
   */
  async saveImported(actor: Actor, organizationId: number, operations: CheckedOperation[], sealed: SealedColumns, enabled: boolean, repos: Repositories): Promise<OperationOutcome[]> {
    const taken = await repos.tools.takenNames(organizationId, operations.map((operation) => operation.name));
    const at = now();
    const outcomes: OperationOutcome[] = [];
    for (const operation of operations) {
      if (taken.has(operation.name)) {
        outcomes.push(skippedOperation(operation.base, nameTakenRefusal(operation.name)));
        continue;
      }
      const { id } = await repos.tools.insert({
        organization_id: organizationId,
        kind: 'api',
        name: operation.name,
        description: operation.description,
        config: JSON.stringify(operation.config),
        ...sealed,
        enabled: enabled ? 1 : 0,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      outcomes.push({ ...operation.base, status: 'imported', reason: null, details: [], tool_id: id, tool_name: operation.name });
    }
    return outcomes;
  }

  async create(actor: Actor, organizationId: number, kind: Exclude<ToolKind, 'api'>, input: CreateToolInput): Promise<ToolView> {
    requireOwnOrganization(actor, organizationId);
    await this.requireManager(actor, kind, 'add');
    const config = await checkedSettings(kind, input.config, this.settingsContext(organizationId, input.secret !== undefined, '/body/config'));
    const description = input.description ?? toolKind(kind).defaultDescription;
    if (description === undefined) throw new BadRequest(`A ${kind} tool needs a description`, [{ pointer: '/body/description', message: 'is required' }]);
    const draft = { name: input.name, description, config, at: '/body/config' };
    return (await this.insert(actor, organizationId, kind, [draft], input.secret, input.enabled))[0]!;
  }

  private insert(actor: Actor, organizationId: number, kind: ToolKind, drafts: ToolDraft[], secret: string | undefined, enabled: boolean | undefined): Promise<ToolView[]> {
    const at = now();
    const sealed = secretColumns(this.secrets, secret);
    return this.store.transaction(async (repos) => {
      const views: ToolView[] = [];
      for (const draft of drafts) {
        const { id } = await repos.tools.insert({
          organization_id: organizationId,
          kind,
          name: draft.name,
          description: draft.description,
          config: JSON.stringify(draft.config),
          ...sealed,
          enabled: enabled === false ? 0 : 1,
          created_on: at,
          created_by: actor.userId,
          modified_on: at,
          modified_by: actor.userId,
        });
        views.push(presentTool(await this.requireTool(actor, organizationId, id, repos), actor));
      }
      return views;
    });
  }

  async update(actor: Actor, organizationId: number, toolId: number, input: UpdateToolInput): Promise<ToolView> {
    const current = await this.requireTool(actor, organizationId, toolId);
    await this.requireManager(actor, current.kind, 'change');
    if (input.secret !== undefined && input.secret !== null && !toolKind(current.kind).takesSecret) {
      throw new BadRequest(`A ${current.kind} tool has no secret`, [{ pointer: '/body/secret', message: `a ${current.kind} tool takes none` }]);
    }
    const hasSecret = input.secret === undefined ? current.secret_sealed !== null : input.secret !== null;
    // The settings are checked again when the secret goes, since they may need one.
    const config = await checkedSettings(current.kind, input.config ?? JSON.parse(current.config), this.settingsContext(organizationId, hasSecret, '/body/config'));
    // A secret kept as it is moves to the current secret key now, if it can be opened.
    const secret = input.secret === undefined ? resealedSecret(this.secrets, current) : secretColumns(this.secrets, input.secret);
    const fields = sentFields(input, ['name', 'description'] as const);
    return this.store.transaction(async (repos) => {
      await repos.tools.update(organizationId, toolId, {
        ...fields,
        config: JSON.stringify(config),
        ...secret,
        ...(input.enabled === undefined ? {} : { enabled: input.enabled ? 1 : 0 }),
        modified_on: now(),
        modified_by: actor.userId,
      });
      return presentTool(await this.requireTool(actor, organizationId, toolId, repos), actor);
    });
  }

  async setEnabled(actor: Actor, organizationId: number, toolId: number, enabled: boolean): Promise<ToolView> {
    await this.requireTool(actor, organizationId, toolId);
    authorize(toolPolicy.mayManage(actor), `Only owners and admins may ${enabled ? 'enable' : 'disable'} tools`);
    return this.store.transaction(async (repos) => {
      await repos.tools.update(organizationId, toolId, { enabled: enabled ? 1 : 0, modified_on: now(), modified_by: actor.userId });
      return presentTool(await this.requireTool(actor, organizationId, toolId, repos), actor);
    });
  }

  /** Agents that name a removed tool no longer have it: the runtime leaves out ids that name no tool. */
  async remove(actor: Actor, organizationId: number, toolId: number): Promise<{ id: number }> {
    await this.requireTool(actor, organizationId, toolId);
    authorize(toolPolicy.mayManage(actor), 'Only owners and admins may remove tools');
    await this.store.repos.tools.delete(organizationId, toolId);
    return { id: toolId };
  }

  /** Runs the tool once, as the caller, outside any thread; 200 whether or not the tool answered. */
  async test(actor: Actor, organizationId: number, toolId: number, input: Record<string, unknown>): Promise<ToolTestResult> {
    const row = await this.requireTool(actor, organizationId, toolId);
    await this.requireManager(actor, row.kind, 'test');
    return runToolOnce(this.runnableOf(row), input, actor, this.options);
  }

  /**
   * The tools an answer of the actor may call among these ids: the organization's, enabled, and not
   * of the api kind while the `api-tools` flag is off; in the order of the ids, secrets opened.
   */
  async runnableTools(actor: Actor, toolIds: number[]): Promise<RunnableTool[]> {
    const ids = [...new Set(toolIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
    const rows = await this.store.repos.tools.enabledAmong(actor.organizationId, ids);
    const apiAllowed = rows.some((row) => row.kind === 'api') && (await this.flags.isEnabled(actor.organizationId, 'api-tools'));
    const byId = new Map(rows.filter((row) => row.kind !== 'api' || apiAllowed).map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [this.runnableOf(row)];
    });
  }

  /** The ids among these that name a tool of the organization (enabled or not). */
  existing(organizationId: number, toolIds: number[]): Promise<number[]> {
    return this.store.repos.tools.existingIds(organizationId, [...new Set(toolIds)]);
  }

  private runnableOf(row: ToolRow): RunnableTool {
    const stored: StoredTool = { id: row.id, organization_id: row.organization_id, kind: row.kind, name: row.name, description: row.description, config: JSON.parse(row.config), secret: null };
    const sealed = sealedSecretOf(row);
    if (sealed === undefined) return buildRunnableTool(stored, this.deps);
    let secret: string;
    try {
      secret = this.secrets.open(sealed);
    } catch (error) {
      return unusableTool(stored, this.deps, `its secret cannot be opened (${(error as Error).message})`);
    }
    return buildRunnableTool({ ...stored, secret }, this.deps);
  }
}

// Tools of an organization: API operations, web search, retrieval, attachments, MCP servers. Owners
// and admins make, change, enable, disable, remove and test them; everyone in the organization sees
// which exist. API and MCP server tools are gated by the `api-tools` flag (making, changing, testing
// them; and the runtime leaves them out while it is off). Secrets and an MCP server's headers are
// sealed at rest and never leave the server; an MCP server's tools are listed when it is written and on
// refresh. The runtime asks `runnableTools` for the tools an answer may call.
import { now } from '../../clock.js';
import { BadRequest, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import { AllowList } from '../../net/allowed-hosts.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { buildRunnableTools, findToolTemplate, type RemoteToolList, type RunnableTool, type StoredTool, type ToolDeps, type ToolKind, toolKind, type ToolTemplate, toolTemplates, unusableTool } from '../../tools/index.js';
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
import { headerColumns, openHeaders, resealedHeaders, splitHeaders } from './tool-headers.js';
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
  /** Commands of local MCP servers the operator allows (MCP_STDIO_COMMANDS). */
  stdioCommands: readonly string[];
}

/** What is stored of a tool's settings beyond `config`: sealed headers and the server's tools, for kinds that have them. */
type WrittenColumns = Partial<Pick<ToolRow, 'headers_sealed' | 'headers_key_id' | 'remote_tools'>>;

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
    // The templates are checked when first asked for, not at start: checking them compiles their
    // schemas with Ajv, which a start then loads for nothing. They ship with the server, and a test
    // (tools-api-units) checks every one, so an invalid template does not reach a release.
  }

  private async requireTool(actor: Actor, organizationId: number, toolId: number, repos: Repositories = this.store.repos): Promise<ToolWithAudit> {
    requireOwnOrganization(actor, organizationId);
    const row = await repos.tools.find(organizationId, toolId);
    if (!row) throw new NotFound('tool', toolId);
    return row;
  }

  /** 403 unless the caller manages tools and, for kinds behind a flag (API and MCP server tools), the organization has it turned on. */
  private async requireManager(actor: Actor, kind: ToolKind, doing: string): Promise<void> {
    authorize(toolPolicy.mayManage(actor), `Only owners and admins may ${doing} tools`);
    const flag = toolKind(kind).featureFlag;
    if (flag !== undefined) await this.flags.require(actor, flag);
  }

  private settingsContext(organizationId: number, hasSecret: boolean, at: string) {
    return {
      hasSecret,
      allowList: this.allowList,
      at,
      stdioCommands: this.options.stdioCommands,
      existingCorpora: (ids: number[]) => this.store.repos.tools.existingCorpusIds(organizationId, ids),
    };
  }

  /**
   * The settings as stored (an MCP server's header values taken out and sealed; `****` keeps a stored
   * one) and, for a tool that offers another server's tools, that server's tools listed now with the
   * settings' choice among them checked (a 400, 502 or 504 otherwise, nothing saved).
   */
  private async written(kind: ToolKind, stored: Omit<StoredTool, 'kind'>, storedHeaders: Record<string, string>): Promise<{ config: Record<string, unknown>; columns: WrittenColumns }> {
    const descriptor = toolKind(kind);
    if (!descriptor.sealsHeaders && descriptor.remoteTools === undefined) return { config: stored.config, columns: {} };
    const { config, headers } = descriptor.sealsHeaders ? splitHeaders(stored.config, storedHeaders, '/body/config') : { config: stored.config, headers: {} };
    const columns: WrittenColumns = descriptor.sealsHeaders ? headerColumns(this.secrets, headers) : {};
    if (descriptor.remoteTools !== undefined) {
      const list = await descriptor.remoteTools.list({ ...stored, kind, headers }, this.deps, this.options);
      const problems = descriptor.remoteTools.problems(config, list, '/body/config');
      if (problems.length > 0) throw new BadRequest(`Invalid settings for a ${kind} tool: ${problems[0]!.pointer} ${problems[0]!.message}`, problems);
      columns.remote_tools = JSON.stringify(list);
    }
    return { config, columns };
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
    const stored = { id: 0, organization_id: organizationId, name: input.name, description, config, secret: input.secret ?? null };
    const written = await this.written(kind, stored, {});
    const draft = { name: input.name, description, config: written.config, at: '/body/config' };
    return (await this.insert(actor, organizationId, kind, [draft], input.secret, input.enabled, written.columns))[0]!;
  }

  private insert(
    actor: Actor,
    organizationId: number,
    kind: ToolKind,
    drafts: ToolDraft[],
    secret: string | undefined,
    enabled: boolean | undefined,
    columns: WrittenColumns = {},
  ): Promise<ToolView[]> {
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
          ...columns,
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
    const checked = await checkedSettings(current.kind, input.config ?? JSON.parse(current.config), this.settingsContext(organizationId, hasSecret, '/body/config'));
    // A secret kept as it is moves to the current secret key now, if it can be opened.
    const secret = input.secret === undefined ? resealedSecret(this.secrets, current) : secretColumns(this.secrets, input.secret);
    const fields = sentFields(input, ['name', 'description'] as const);
    // New settings or a new secret: an MCP server is asked for its tools again, the choice checked.
    const descriptor = toolKind(current.kind);
    const rewritten = (descriptor.sealsHeaders === true || descriptor.remoteTools !== undefined) && (input.config !== undefined || input.secret !== undefined);
    const { config, columns } = rewritten
      ? await this.written(current.kind, this.openedStored(current, checked, input.secret), this.headersOf(current))
      : { config: checked, columns: resealedHeaders(this.secrets, current) };
    return this.store.transaction(async (repos) => {
      await repos.tools.update(organizationId, toolId, {
        ...fields,
        config: JSON.stringify(config),
        ...secret,
        ...columns,
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

  /** Asks the MCP server a tool names for its tools again and keeps them; answers the tool with them. */
  async refresh(actor: Actor, organizationId: number, toolId: number): Promise<ToolView> {
    const row = await this.requireTool(actor, organizationId, toolId);
    await this.requireManager(actor, row.kind, 'refresh');
    const remote = toolKind(row.kind).remoteTools;
    if (remote === undefined) throw new BadRequest(`A ${row.kind} tool has no tools of another server to refresh`, [{ pointer: '/params/tool_id', message: 'names a tool that is not an MCP server tool' }]);
    const list: RemoteToolList = await remote.list(this.openedStored(row, JSON.parse(row.config), undefined), this.deps, this.options);
    return this.store.transaction(async (repos) => {
      await repos.tools.update(organizationId, toolId, { remote_tools: JSON.stringify(list) });
      return presentTool(await this.requireTool(actor, organizationId, toolId, repos), actor);
    });
  }

  /** Runs the tool once, as the caller, outside any thread; 200 whether or not the tool answered. */
  async test(actor: Actor, organizationId: number, toolId: number, input: Record<string, unknown>, remoteTool?: string): Promise<ToolTestResult> {
    const row = await this.requireTool(actor, organizationId, toolId);
    await this.requireManager(actor, row.kind, 'test');
    return runToolOnce(chosenFunction(this.runnablesOf(row), remoteTool), input, actor, this.options);
  }

  /**
   * The tools an answer of the actor may call among these ids: the organization's, enabled, and not
   * of the api kind while the `api-tools` flag is off; in the order of the ids, secrets opened.
   */
  async runnableTools(actor: Actor, toolIds: number[]): Promise<RunnableTool[]> {
    const ids = [...new Set(toolIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
    const rows = await this.store.repos.tools.enabledAmong(actor.organizationId, ids);
    const flags = new Set(rows.flatMap((row) => toolKind(row.kind).featureFlag ?? []));
    const flagsOn = new Set<string>();
    for (const flag of flags) if (await this.flags.isEnabled(actor.organizationId, flag)) flagsOn.add(flag);
    const allowed = (kind: ToolKind) => {
      const flag = toolKind(kind).featureFlag;
      return flag === undefined || flagsOn.has(flag);
    };
    const byId = new Map(rows.filter((row) => allowed(row.kind)).map((row) => [row.id, row]));
    // A name the model sees twice (an MCP server's function named like another tool) would make a call ambiguous: the first keeps it.
    const names = new Set<string>();
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (row === undefined) return [];
      return this.runnablesOf(row).filter((tool) => !names.has(tool.definition.name) && names.add(tool.definition.name));
    });
  }

  /** The ids among these that name a tool of the organization (enabled or not). */
  existing(organizationId: number, toolIds: number[]): Promise<number[]> {
    return this.store.repos.tools.existingIds(organizationId, [...new Set(toolIds)]);
  }

  /** The stored headers, opened; none when no known key opens them (the tool is then unusable until they are given again). */
  private headersOf(row: ToolRow): Record<string, string> {
    try {
      return openHeaders(this.secrets, row);
    } catch {
      return {};
    }
  }

  /** The tool as its kind's factory and listing take it: a secret sent now (a string, or null removing it) or the stored one opened. */
  private storedOf(row: ToolRow, config: Record<string, unknown>, secret: string | null | undefined): StoredTool {
    const sealed = sealedSecretOf(row);
    const kept = secret !== undefined ? secret : sealed === undefined ? null : this.secrets.open(sealed);
    return {
      id: row.id,
      organization_id: row.organization_id,
      kind: row.kind,
      name: row.name,
      description: row.description,
      config,
      secret: kept,
      headers: openHeaders(this.secrets, row),
      remoteTools: row.remote_tools === null ? null : (JSON.parse(row.remote_tools) as RemoteToolList),
    };
  }

  /** storedOf for a tool about to be written or refreshed: a 400 asking for the secret and headers again when no known key opens them. */
  private openedStored(row: ToolRow, config: Record<string, unknown>, secret: string | null | undefined): StoredTool {
    try {
      return this.storedOf(row, config, secret);
    } catch (error) {
      throw new BadRequest(`The tool's stored secret or headers cannot be opened (${(error as Error).message}): send them again`, [{ pointer: '/body/secret', message: 'cannot be opened: send it again' }]);
    }
  }

  private runnablesOf(row: ToolRow): RunnableTool[] {
    const config = JSON.parse(row.config) as Record<string, unknown>;
    try {
      return buildRunnableTools(this.storedOf(row, config, undefined), this.deps);
    } catch (error) {
      const remoteTools = row.remote_tools === null ? null : (JSON.parse(row.remote_tools) as RemoteToolList);
      const stored = { id: row.id, organization_id: row.organization_id, kind: row.kind, name: row.name, description: row.description, config, secret: null, remoteTools };
      return unusableTool(stored, this.deps, `its secret or headers cannot be opened (${(error as Error).message})`);
    }
  }
}

/** The one function of a tool a test run runs: the only one, or the MCP server's tool named. */
function chosenFunction(tools: RunnableTool[], remoteTool: string | undefined): RunnableTool {
  if (remoteTool === undefined && tools.length === 1) return tools[0]!;
  const offered = tools.map((tool) => tool.remoteName).filter((name) => name !== undefined);
  if (remoteTool === undefined) {
    const why = offered.length === 0 ? 'the tool offers no tool of its server to agents (refresh it, or choose others in config.tools)' : `is required: choose one of ${offered.join(', ')}`;
    throw new BadRequest(`Name the tool of the server to run in remote_tool`, [{ pointer: '/body/remote_tool', message: why }]);
  }
  const tool = tools.find((one) => one.remoteName === remoteTool);
  if (tool === undefined) {
    const why = offered.length === 0 ? 'names no tool the tool offers: it offers none' : `names no tool the tool offers (it offers ${offered.join(', ')})`;
    throw new BadRequest(`The tool offers no remote tool "${remoteTool}"`, [{ pointer: '/body/remote_tool', message: why }]);
  }
  return tool;
}

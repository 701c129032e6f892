// Guardrails of an organization: written by owners and admins, read and tested by everyone in it, and
// handed to the runtime compiled (forAgent). Two feature flags gate them: `guardrail` (creating,
// changing and testing any guardrail; when off, agents answer without guardrails) and `pii-redaction`
// (the same for guardrails of type pii). Reading and deleting stay open with the flags off.
import { LRUCache } from 'lru-cache';
import { now, nowMs } from '../../clock.js';
import { BadRequest, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import { agentGuardrails, type AgentGuardrails, applyGuardrails, type CompiledGuardrail, compileGuardrail, type GuardrailStage, type GuardrailType } from '../../guardrails/index.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Embedder } from '../../providers/embeddings/embedder.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { checkedConfig, requireSafePatterns } from './guardrail-config.js';
import { guardrailPolicy } from './guardrail.policy.js';
import { definitionOf, presentGuardrail } from './guardrail.presenter.js';
import type { GuardrailStoredRow } from './guardrails.repo.js';
import type { CreateGuardrailInput, GuardrailTestResult, GuardrailView, TestGuardrailInput, UpdateGuardrailInput } from './guardrails.schemas.js';

/** Compiled guardrails kept between answers (a list of ten thousand terms is built once); the least recently used go first. */
const COMPILED_KEPT = 200;

export class GuardrailsService {
  private readonly compiled = new LRUCache<string, CompiledGuardrail>({ max: COMPILED_KEPT });

  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
    private readonly embedder: Embedder | undefined,
  ) {}

  private async requireGuardrail(actor: Actor, guardrailId: number, repos: Repositories = this.store.repos) {
    const row = await repos.guardrails.find(actor.organizationId, guardrailId);
    if (!row) throw new NotFound('Guardrail', guardrailId);
    return row;
  }

  /** 403 when the flags turn this type of guardrail off for the organization. */
  private async requireFlags(actor: Actor, type: GuardrailType): Promise<void> {
    await this.flags.require(actor, 'guardrail');
    if (type === 'pii') await this.flags.require(actor, 'pii-redaction');
  }

  async list(actor: Actor, window: ListWindow, type: GuardrailType | undefined): Promise<ListSlice<GuardrailView>> {
    const { items, total } = await this.store.repos.guardrails.list(actor.organizationId, window, type);
    return { items: items.map(presentGuardrail), total };
  }

  async get(actor: Actor, guardrailId: number): Promise<GuardrailView> {
    return presentGuardrail(await this.requireGuardrail(actor, guardrailId));
  }

  async create(actor: Actor, input: CreateGuardrailInput): Promise<GuardrailView> {
    const config = checkedConfig(input.type, input.config, '/body/config');
    authorize(guardrailPolicy.mayManage(actor), 'Only owners and admins may create guardrails');
    await this.requireFlags(actor, input.type);
    await requireSafePatterns(input.type, config, '/body/config');
    const at = now();
    return this.store.transaction(async (repos) => {
      const { id } = await repos.guardrails.insert({
        organization_id: actor.organizationId,
        name: input.name,
        type: input.type,
        stages: JSON.stringify(input.stages),
        action: input.action,
        config: JSON.stringify(config),
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      return presentGuardrail(await this.requireGuardrail(actor, id, repos));
    });
  }

  async update(actor: Actor, guardrailId: number, input: UpdateGuardrailInput): Promise<GuardrailView> {
    const current = await this.requireGuardrail(actor, guardrailId);
    const type = input.type ?? current.type;
    if (type !== current.type && input.config === undefined) {
      throw new BadRequest(`A guardrail that becomes of type ${type} needs its config`, [{ pointer: '/body/config', message: `is required when type changes to ${type}` }]);
    }
    const config = input.config === undefined ? undefined : checkedConfig(type, input.config, '/body/config');
    authorize(guardrailPolicy.mayManage(actor), 'Only owners and admins may change guardrails');
    await this.requireFlags(actor, type);
    if (config !== undefined) await requireSafePatterns(type, config, '/body/config');
    const fields = sentFields(input, ['name', 'type', 'action'] as const);
    return this.store.transaction(async (repos) => {
      await repos.guardrails.update(actor.organizationId, guardrailId, {
        ...fields,
        ...(input.stages === undefined ? {} : { stages: JSON.stringify(input.stages) }),
        ...(config === undefined ? {} : { config: JSON.stringify(config) }),
        modified_on: now(),
        modified_by: actor.userId,
      });
      return presentGuardrail(await this.requireGuardrail(actor, guardrailId, repos));
    });
  }

  /** Agents that name it answer without it from then on. */
  async remove(actor: Actor, guardrailId: number): Promise<{ id: number }> {
    await this.requireGuardrail(actor, guardrailId);
    authorize(guardrailPolicy.mayManage(actor), 'Only owners and admins may delete guardrails');
    await this.store.repos.guardrails.delete(actor.organizationId, guardrailId);
    return { id: guardrailId };
  }

  /**
   * What the guardrail would do to a text at a stage (its first stage when none is named): at a stage it
   * does not watch, nothing. `action` is the guardrail's when it found something, `none` otherwise.
   */
  async test(actor: Actor, guardrailId: number, input: TestGuardrailInput): Promise<GuardrailTestResult> {
    const row = await this.requireGuardrail(actor, guardrailId);
    await this.requireFlags(actor, row.type);
    const guardrail = this.compile(row);
    const stage: GuardrailStage = input.stage ?? guardrail.stages[0]!;
    const startedAt = nowMs();
    const result = await applyGuardrails([guardrail], stage, input.text);
    const latencyMs = Math.max(0, Math.round(nowMs() - startedAt));
    const verdict = result.verdicts[0];
    return { action: verdict?.action ?? 'none', text: result.text, findings: verdict?.findings ?? [], latency_ms: latencyMs, blocked: result.blocked, stage };
  }

  /** Which of these ids name guardrails of the organization. */
  existing(organizationId: number, guardrailIds: readonly number[]): Promise<number[]> {
    return this.store.repos.guardrails.existing(organizationId, guardrailIds);
  }

  /**
   * The guardrails an agent answers under, in the order named, compiled: ids that name nothing (a
   * deleted guardrail) are skipped, and so are pii guardrails while `pii-redaction` is off, and all of
   * them while `guardrail` is off.
   */
  async forAgent(organizationId: number, guardrailIds: readonly number[]): Promise<AgentGuardrails> {
    if (guardrailIds.length === 0 || !(await this.flags.isEnabled(organizationId, 'guardrail'))) return agentGuardrails([]);
    const rows = await this.store.repos.guardrails.findMany(organizationId, guardrailIds);
    const piiAllowed = !rows.some((row) => row.type === 'pii') || (await this.flags.isEnabled(organizationId, 'pii-redaction'));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const named = [...new Set(guardrailIds)].flatMap((id) => {
      const row = byId.get(id);
      return row === undefined || (row.type === 'pii' && !piiAllowed) ? [] : [this.compile(row)];
    });
    return agentGuardrails(named);
  }

  /** A stored guardrail compiled, or the one compiled before for the same settings. */
  private compile(row: GuardrailStoredRow): CompiledGuardrail {
    const key = `${row.id}|${row.modified_on}|${row.action}|${row.stages}|${row.config}`;
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      compiled = compileGuardrail(definitionOf(row), { embedder: this.embedder });
      this.compiled.set(key, compiled);
    }
    return compiled;
  }
}

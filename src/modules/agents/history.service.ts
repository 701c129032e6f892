// History of an agent: listing it, saving checkpoints, comparing a record with the present, and
// restoring a record, as the interface fixes it (API.md §2.1).
import { BadRequest, NotFound } from '../../errors.js';
import { asPage, pageOf, windowOf, type PageRequest } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { changeRefusal, checkAliasFlag, checkGuardrailFlag, loadAgentAccess, requireVisibleAgent } from './agent-access.js';
import { configurationOf, differences, snapshotOf } from './agent-config.js';
import { commitAgentChange, recordAgentHistory } from './agent-changes.js';
import { withoutVanished } from './agent-references.js';
import { presentHistoryRecord, presentRestoredRecord } from './agent.presenter.js';
import { agentPolicy, authorize } from './agent.policy.js';

export interface RestoreInput {
  history_id?: number | undefined;
  checkpoint_description?: string | undefined;
}

export class HistoryService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
  ) {}

  private async requireRecord(actor: Actor, agentId: number, historyId: number) {
    const record = await this.store.repos.history.find(actor.organizationId, agentId, historyId);
    if (!record) throw new NotFound('history', historyId);
    return record;
  }

  async list(actor: Actor, agentId: number, page: PageRequest) {
    await requireVisibleAgent(this.store.repos, actor, agentId);
    const { items, total } = await this.store.repos.history.list(actor.organizationId, agentId, windowOf(page));
    return asPage({ items: items.map(presentHistoryRecord), total }, page);
  }

  async get(actor: Actor, agentId: number, historyId: number) {
    const agent = await requireVisibleAgent(this.store.repos, actor, agentId);
    const record = await this.requireRecord(actor, agentId, historyId);
    const changed = differences(record.snapshot, snapshotOf(agent));
    return {
      ...presentHistoryRecord(record),
      snapshot: record.snapshot,
      is_current: changed.every((difference) => difference.field === 'status'),
      differences: changed,
    };
  }

  /** Saves the current configuration under a name; the agent and its version do not change. */
  async saveCheckpoint(actor: Actor, agentId: number, input: { checkpoint_name: string; checkpoint_description?: string | undefined }) {
    const access = await loadAgentAccess(this.store.repos, actor, agentId);
    authorize(agentPolicy.mayChange(actor, access.agent, access.teamRole), changeRefusal(access.agent, 'save checkpoints of agents'));
    return this.store.transaction(async (repos) => {
      const agent = await requireVisibleAgent(repos, actor, agentId);
      const historyId = await recordAgentHistory(repos, actor, agent, {
        kind: 'checkpoint',
        checkpointName: input.checkpoint_name,
        description: input.checkpoint_description,
      });
      return presentHistoryRecord((await repos.history.find(actor.organizationId, agentId, historyId))!);
    });
  }

  /**
   * Copies the chosen record's configuration back onto the agent and appends a record of the
   * restore, in one transaction. The version bump is the transaction's first write, which
   * serialises concurrent restores and updates of the agent. Corpora and an LLM configuration the
   * record names but that have been deleted since are dropped; `dropped` says which.
   */
  async restore(actor: Actor, agentId: number, input: RestoreInput) {
    const historyId = input.history_id;
    if (historyId === undefined) {
      throw new BadRequest('history_id is required to restore a checkpoint', [{ pointer: '/body/history_id', message: 'is required' }]);
    }
    const { agent, teamRole } = await loadAgentAccess(this.store.repos, actor, agentId);
    authorize(agentPolicy.mayRestore(actor, agent, teamRole), changeRefusal(agent, 'restore agents'));
    // Records are immutable, so reading the target before taking the agent's lock is safe.
    const target = await this.requireRecord(actor, agentId, historyId);
    await checkAliasFlag(this.flags, actor, target.snapshot.alias, agent.alias);
    await checkGuardrailFlag(this.flags, actor, target.snapshot.guardrail_ids, agent.guardrail_ids);
    const dropped = await this.store.transaction(async (repos) => {
      const restored = await withoutVanished(repos, actor.organizationId, configurationOf(target.snapshot));
      await commitAgentChange(repos, actor, agentId, restored.configuration, {
        kind: 'restore',
        checkpointName: `Restored to #${target.id}: ${target.checkpoint_name}`,
        description: input.checkpoint_description,
        restoredFromId: target.id,
      });
      return restored.dropped;
    });
    return { record: presentRestoredRecord(target), dropped };
  }

  /** Each distinct version of the instructions, newest first, with the newest record that held it. */
  async promptHistory(actor: Actor, agentId: number, page: PageRequest) {
    await requireVisibleAgent(this.store.repos, actor, agentId);
    const records = await this.store.repos.history.listWithSnapshots(actor.organizationId, agentId);
    const seen = new Set<string>();
    const versions = [];
    for (const { snapshot, ...record } of records) {
      if (seen.has(snapshot.instructions)) continue;
      seen.add(snapshot.instructions);
      versions.push({
        history_id: record.id,
        version: record.version,
        instructions: snapshot.instructions,
        created_on: record.created_on,
        created_by: record.created_by_email,
      });
    }
    return pageOf(versions, page);
  }
}

// History of an agent: listing it, saving checkpoints, comparing a record with the present, and
// restoring a record, as the interface fixes it (API.md §2.1).
import { now } from '../../clock.js';
import type { Database } from '../../db/database.js';
import { BadRequest, NotFound } from '../../errors.js';
import { pageOf, type PageRequest } from '../../pagination.js';
import type { Actor } from '../auth/actor.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { changeRefusal, checkAliasFlag, loadAgentAccess } from './agent-access.js';
import { configurationOf, differences, parseSnapshot, snapshotOf } from './agent-config.js';
import { commitAgentChange } from './agent-changes.js';
import { presentHistoryRecord, presentRestoredRecord } from './agent.presenter.js';
import { agentPolicy, authorize } from './agent.policy.js';
import { AgentsRepo } from './agents.repo.js';
import { HistoryRepo } from './history.repo.js';

export interface RestoreInput {
  history_id?: number | undefined;
  checkpoint_description?: string | undefined;
}

export class HistoryService {
  constructor(
    private readonly database: Database,
    private readonly flags: FeatureFlagsService,
  ) {}

  private async requireAgent(actor: Actor, agentId: number) {
    const agent = await new AgentsRepo(this.database.db, this.database.dialect).findVisible(actor.organizationId, agentId);
    if (!agent) throw new NotFound('agent', agentId);
    return agent;
  }

  async list(actor: Actor, agentId: number, page: PageRequest) {
    await this.requireAgent(actor, agentId);
    const { rows, total } = await new HistoryRepo(this.database.db).list(actor.organizationId, agentId, page);
    return { items: rows.map(presentHistoryRecord), page: page.page, page_size: page.page_size, total };
  }

  async get(actor: Actor, agentId: number, historyId: number) {
    const agent = await this.requireAgent(actor, agentId);
    const record = await new HistoryRepo(this.database.db).find(actor.organizationId, agentId, historyId);
    if (!record) throw new NotFound('history', historyId);
    const snapshot = parseSnapshot(record.snapshot);
    const changed = differences(snapshot, snapshotOf(agent));
    return {
      ...presentHistoryRecord(record),
      snapshot,
      is_current: changed.every((difference) => difference.field === 'status'),
      differences: changed,
    };
  }

  /** Saves the current configuration under a name; the agent and its version do not change. */
  async saveCheckpoint(actor: Actor, agentId: number, input: { checkpoint_name: string; checkpoint_description?: string | undefined }) {
    const access = await loadAgentAccess(this.database.db, this.database.dialect, actor, agentId);
    authorize(agentPolicy.mayChange(actor, access.agent, access.teamRole), changeRefusal(access.agent, 'save checkpoints of agents'));
    return this.database.db.transaction().execute(async (trx) => {
      const agent = await new AgentsRepo(trx, this.database.dialect).findVisible(actor.organizationId, agentId);
      if (!agent) throw new NotFound('agent', agentId);
      const history = new HistoryRepo(trx);
      const historyId = await history.append({
        organization_id: actor.organizationId,
        agent_id: agentId,
        version: agent.version,
        kind: 'checkpoint',
        checkpoint_name: input.checkpoint_name,
        description: input.checkpoint_description ?? null,
        snapshot: JSON.stringify(snapshotOf(agent)),
        restored_from_id: null,
        created_on: now(),
        created_by: actor.userId,
      });
      return presentHistoryRecord((await history.find(actor.organizationId, agentId, historyId))!);
    });
  }

  /**
   * Copies the chosen record's configuration back onto the agent and appends a record of the
   * restore, in one transaction. The version bump is the transaction's first write, which
   * serialises concurrent restores and updates of the agent.
   */
  async restore(actor: Actor, agentId: number, input: RestoreInput) {
    const historyId = input.history_id;
    if (historyId === undefined) {
      throw new BadRequest('history_id is required to restore a checkpoint', [{ pointer: '/body/history_id', message: 'is required' }]);
    }
    const { agent, teamRole } = await loadAgentAccess(this.database.db, this.database.dialect, actor, agentId);
    authorize(agentPolicy.mayRestore(actor, agent, teamRole), changeRefusal(agent, 'restore agents'));
    // Records are immutable, so reading the target before taking the agent's lock is safe.
    const target = await new HistoryRepo(this.database.db).find(actor.organizationId, agentId, historyId);
    if (!target) throw new NotFound('history', historyId);
    const configuration = configurationOf(parseSnapshot(target.snapshot));
    await checkAliasFlag(this.flags, actor, configuration.alias, agent.alias);
    return this.database.db.transaction().execute(async (trx) => {
      await commitAgentChange(
        trx,
        this.database.dialect,
        actor,
        agentId,
        { ...configuration, conversation_starters: JSON.stringify(configuration.conversation_starters) },
        {
          kind: 'restore',
          checkpointName: `Restored to #${target.id}: ${target.checkpoint_name}`,
          description: input.checkpoint_description,
          restoredFromId: target.id,
        },
      );
      return presentRestoredRecord(target);
    });
  }

  /** Each distinct version of the instructions, newest first, with the newest record that held it. */
  async promptHistory(actor: Actor, agentId: number, page: PageRequest) {
    await this.requireAgent(actor, agentId);
    const records = await new HistoryRepo(this.database.db).listWithSnapshots(actor.organizationId, agentId);
    const seen = new Set<string>();
    const versions = [];
    for (const record of records) {
      const { instructions } = parseSnapshot(record.snapshot);
      if (seen.has(instructions)) continue;
      seen.add(instructions);
      versions.push({
        history_id: record.id,
        version: record.version,
        instructions,
        created_on: record.created_on,
        created_by: record.created_by_email,
      });
    }
    return pageOf(versions, page);
  }
}

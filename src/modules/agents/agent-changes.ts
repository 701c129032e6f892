// The one way an agent's history grows: recordAgentHistory appends the record that describes the
// agent's state, and commitAgentChange, the one way an agent's row changes after creation, bumps the
// version and records the new state with it. Both write through the caller's repositories, so in the
// caller's transaction.
import { now } from '../../clock.js';
import type { HistoryKind } from '../../db/schema.js';
import { NotFound, PreconditionFailed } from '../../errors.js';
import type { Repositories } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { snapshotOf } from './agent-config.js';
import type { Agent, AgentChange, CorpusConnection } from './agents.repo.js';

export interface HistoryEntry {
  kind: HistoryKind;
  checkpointName: string;
  description?: string | null | undefined;
  restoredFromId?: number | undefined;
}

export interface ChangeRecord extends HistoryEntry {
  /** The version the change was based on (If-Match); the change fails with 412 if the agent moved on. */
  expectedVersion?: number | undefined;
  /** One corpus connected or disconnected, under the agent's lock (the corpus side of the connection). */
  connection?: CorpusConnection | undefined;
}

/** Appends a record of the agent as it is now (its configuration and version); answers the record's id. */
export function recordAgentHistory(repos: Repositories, actor: Actor, agent: Agent, entry: HistoryEntry, at = now()): Promise<number> {
  return repos.history.append({
    organization_id: actor.organizationId,
    agent_id: agent.id,
    version: agent.version,
    kind: entry.kind,
    checkpoint_name: entry.checkpointName,
    description: entry.description ?? null,
    snapshot: snapshotOf(agent),
    restored_from_id: entry.restoredFromId ?? null,
    created_on: at,
    created_by: actor.userId,
  });
}

export async function commitAgentChange(
  repos: Repositories,
  actor: Actor,
  agentId: number,
  fields: AgentChange,
  record: ChangeRecord,
): Promise<void> {
  const at = now();
  const agent = await repos.agents.changeAndBumpVersion(actor.organizationId, agentId, fields, {
    userId: actor.userId,
    at,
    expectedVersion: record.expectedVersion,
    connection: record.connection,
  });
  if (!agent) {
    if (record.expectedVersion !== undefined && (await repos.agents.exists(actor.organizationId, agentId))) {
      throw new PreconditionFailed(`Agent ${agentId} is no longer at version ${record.expectedVersion}`);
    }
    throw new NotFound('agent', agentId);
  }
  await recordAgentHistory(repos, actor, agent, record, at);
}

// The one way an agent's row changes after creation: bump the version and append the history
// record that describes the new state, in the caller's transaction.
import type { Kysely } from 'kysely';
import { now } from '../../clock.js';
import type { Dialect } from '../../db/dialect.js';
import type { AgentRow, AgentRowUpdate, DB, HistoryKind } from '../../db/schema.js';
import { NotFound, PreconditionFailed } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import { snapshotOf } from './agent-config.js';
import { AgentsRepo } from './agents.repo.js';
import { HistoryRepo } from './history.repo.js';

export interface ChangeRecord {
  kind: HistoryKind;
  checkpointName: string;
  description?: string | null | undefined;
  restoredFromId?: number | undefined;
  /** The version the change was based on (If-Match); the change fails with 412 if the agent moved on. */
  expectedVersion?: number | undefined;
}

export async function commitAgentChange(
  trx: Kysely<DB>,
  dialect: Dialect,
  actor: Actor,
  agentId: number,
  fields: AgentRowUpdate,
  record: ChangeRecord,
): Promise<{ agent: AgentRow; historyId: number }> {
  const agents = new AgentsRepo(trx, dialect);
  const at = now();
  const agent = await agents.changeAndBumpVersion(actor.organizationId, agentId, fields, {
    userId: actor.userId,
    at,
    expectedVersion: record.expectedVersion,
  });
  if (!agent) {
    if (record.expectedVersion !== undefined && (await agents.exists(actor.organizationId, agentId))) {
      throw new PreconditionFailed(`Agent ${agentId} is no longer at version ${record.expectedVersion}`);
    }
    throw new NotFound('agent', agentId);
  }
  const historyId = await new HistoryRepo(trx).append({
    organization_id: actor.organizationId,
    agent_id: agent.id,
    version: agent.version,
    kind: record.kind,
    checkpoint_name: record.checkpointName,
    description: record.description ?? null,
    snapshot: JSON.stringify(snapshotOf(agent)),
    restored_from_id: record.restoredFromId ?? null,
    created_on: at,
    created_by: actor.userId,
  });
  return { agent, historyId };
}

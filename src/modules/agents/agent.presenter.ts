import type { AgentView } from './agents.schemas.js';
import { snapshotOf } from './agent-config.js';
import type { AgentWithUsers } from './agents.repo.js';
import type { HistoryRecordRow } from './history.repo.js';

export function presentAgent(agent: AgentWithUsers): AgentView {
  return {
    id: agent.id,
    organization_id: agent.organization_id,
    ...snapshotOf(agent),
    team_id: agent.team_id,
    project_id: agent.project_id,
    version: agent.version,
    created_on: agent.created_on,
    created_by: agent.created_by_email,
    modified_on: agent.modified_on,
    modified_by: agent.modified_by_email,
  };
}

export function presentHistoryRecord(record: HistoryRecordRow) {
  return {
    history_id: record.id,
    agent_id: record.agent_id,
    version: record.version,
    kind: record.kind,
    checkpoint_name: record.checkpoint_name,
    description: record.description,
    restored_from_history_id: record.restored_from_id,
    created_on: record.created_on,
    created_by: record.created_by_email,
  };
}

/** The interface's AgentHistoryResponse: these four fields and no others. */
export function presentRestoredRecord(record: HistoryRecordRow) {
  return {
    history_id: record.id,
    checkpoint_name: record.checkpoint_name,
    created_on: record.created_on,
    created_by: record.created_by_email,
  };
}

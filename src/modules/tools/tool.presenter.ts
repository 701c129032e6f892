// What a read shows of a tool: never the sealed secret, only its hint; to members and viewers only
// what tells the tools apart.
import type { Subject } from '../auth/roles.js';
import type { ToolWithAudit } from './tools.repo.js';
import type { ToolView } from './tools.schemas.js';
import { toolPolicy } from './tool.policy.js';

export function presentTool(row: ToolWithAudit, viewer: Subject): ToolView {
  const summary = { id: row.id, kind: row.kind, name: row.name, description: row.description, enabled: row.enabled === 1 };
  if (!toolPolicy.seesSettings(viewer)) return summary;
  return {
    ...summary,
    organization_id: row.organization_id,
    config: JSON.parse(row.config) as Record<string, unknown>,
    secret_hint: row.secret_hint,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

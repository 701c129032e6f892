// What a read shows of a tool: never the sealed secret or header values, only the secret's hint and
// the headers' names; to members and viewers only what tells the tools apart. An MCP server tool shows
// its owners and admins the server's tools as last listed, with the name the model calls each by.
import { offeredTools, type RemoteToolList } from '../../tools/index.js';
import type { Subject } from '../auth/roles.js';
import type { ToolWithAudit } from './tools.repo.js';
import type { ToolView } from './tools.schemas.js';
import { toolPolicy } from './tool.policy.js';

function presentRemoteTools(name: string, config: Record<string, unknown>, list: RemoteToolList): NonNullable<ToolView['remote_tools']> {
  const chosen = config.tools as string[] | undefined;
  const offered = new Map(offeredTools(name, { tools: chosen }, list).map((tool) => [tool.remote.name, tool.functionName]));
  const listed = new Set(list.tools.map((tool) => tool.name));
  return {
    listed_on: list.listed_on,
    transport: list.transport,
    tools: list.tools.map((tool) => ({ ...tool, function_name: offered.get(tool.name) ?? null })),
    left_out: list.left_out,
    unlisted: (chosen ?? []).filter((tool) => !listed.has(tool)),
  };
}

export function presentTool(row: ToolWithAudit, viewer: Subject): ToolView {
  const summary = { id: row.id, kind: row.kind, name: row.name, description: row.description, enabled: row.enabled === 1 };
  if (!toolPolicy.seesSettings(viewer)) return summary;
  const config = JSON.parse(row.config) as Record<string, unknown>;
  return {
    ...summary,
    organization_id: row.organization_id,
    config,
    secret_hint: row.secret_hint,
    ...(row.remote_tools === null ? {} : { remote_tools: presentRemoteTools(row.name, config, JSON.parse(row.remote_tools) as RemoteToolList) }),
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

// The tools pages' writes, each one request of the API.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ToolBody } from './ToolForm';
import type { Tool, ToolKind } from './tools-api';

type Ids = { org_id: number; tool_id: number };

export async function createTool(organizationId: number, kind: ToolKind, body: ToolBody): Promise<Tool> {
  const path = { org_id: organizationId };
  switch (kind) {
    case 'api': {
      const data = (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/api', { params: { path }, body: body as never }))).data;
      return data as Tool;
    }
    case 'mcp':
      return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/mcp', { params: { path }, body: body as never }))).data;
    case 'web_search':
      return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/web-search', { params: { path }, body: body as never }))).data;
    case 'retrieval':
      return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/retrieval', { params: { path }, body: body as never }))).data;
    case 'attachment':
      return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/attachment', { params: { path }, body: body as never }))).data;
  }
}

export async function createFromTemplate(organizationId: number, templateId: string, name: string, secret: string): Promise<Tool> {
  const body = { template_id: templateId, ...(name === '' ? {} : { name }), ...(secret === '' ? {} : { secret }) };
  return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/api', { params: { path: { org_id: organizationId } }, body }))).data as Tool;
}

export async function updateTool(ids: Ids, body: Partial<ToolBody>): Promise<Tool> {
  return (await unwrap(api.PUT('/api/v2/organizations/{org_id}/tools/{tool_id}', { params: { path: ids }, body }))).data;
}

export async function setToolEnabled(ids: Ids, enabled: boolean): Promise<Tool> {
  const options = { params: { path: ids } };
  return (await unwrap(enabled ? api.POST('/api/v2/organizations/{org_id}/tools/{tool_id}/enable', options) : api.POST('/api/v2/organizations/{org_id}/tools/{tool_id}/disable', options))).data;
}

export async function refreshTool(ids: Ids): Promise<Tool> {
  return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/{tool_id}/refresh', { params: { path: ids } }))).data;
}

export async function deleteTool(ids: Ids): Promise<void> {
  await unwrap(api.DELETE('/api/v2/organizations/{org_id}/tools/{tool_id}', { params: { path: ids } }));
}

export async function testTool(ids: Ids, input: Record<string, unknown>, remoteTool: string | undefined) {
  return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tools/{tool_id}/test', { params: { path: ids }, body: { input, ...(remoteTool === undefined ? {} : { remote_tool: remoteTool }) } }))).data;
}

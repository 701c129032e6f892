// The tools pages' reads and the shapes they use: the organization's tools, one tool, the templates,
// the api-tools feature flag, an import and its report. One key per thing, so that a change
// invalidates what it touched (the list of tools beside the tool changed).
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { wholeList } from '../../api/queries';

export type Tool = Schemas['Tool'];
export type ToolKind = Tool['kind'];
export type ToolTestResult = Schemas['ToolTestResult'];
export type ToolTemplate = Schemas['ToolTemplate'];
export type ToolImport = Schemas['ToolImport'];
export type ImportedOperation = Schemas['ImportedOperation'];
export type RemoteTool = Schemas['RemoteTool'];

/** The flag behind API and MCP server tools (off by default). */
export const API_TOOLS_FLAG = 'api-tools';

/** The kinds in the order the list shows them, with what each is called. */
export const KINDS: readonly { kind: ToolKind; title: string; one: string; path: string; needsFlag: boolean }[] = [
  { kind: 'api', title: 'API tools', one: 'API tool', path: 'api', needsFlag: true },
  { kind: 'mcp', title: 'MCP servers', one: 'MCP server', path: 'mcp', needsFlag: true },
  { kind: 'web_search', title: 'Web search', one: 'web search tool', path: 'web-search', needsFlag: false },
  { kind: 'retrieval', title: 'Retrieval', one: 'retrieval tool', path: 'retrieval', needsFlag: false },
  { kind: 'attachment', title: 'Attachments', one: 'attachment tool', path: 'attachment', needsFlag: false },
];

export const kindOf = (kind: ToolKind) => KINDS.find((entry) => entry.kind === kind)!;

export const toolKeys = {
  list: (organizationId: number) => ['tools', 'list', organizationId] as const,
  one: (toolId: number) => ['tools', 'one', toolId] as const,
  templates: ['tool-templates'] as const,
  flag: ['feature-flags', API_TOOLS_FLAG] as const,
  import: (importId: number) => ['tool-imports', importId] as const,
  /** Read again whenever the import has done more (its count of operations done). */
  report: (importId: number, page: number, done: number) => ['tool-imports', importId, 'operations', page, done] as const,
};

/** The API's largest page: an organization's tools are read whole, a page at a time. */
const PAGE_SIZE_MAX = 100;

/** Every tool of the organization (read whole: the page groups them by kind). */
export const toolListQuery = (organizationId: number) =>
  queryOptions({
    queryKey: toolKeys.list(organizationId),
    queryFn: () =>
      wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/organizations/{org_id}/tools', { params: { path: { org_id: organizationId }, query: { page, page_size: pageSize } } }))).data),
  });

export const toolQuery = (organizationId: number, toolId: number) =>
  queryOptions({
    queryKey: toolKeys.one(toolId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/organizations/{org_id}/tools/{tool_id}', { params: { path: { org_id: organizationId, tool_id: toolId } } }))).data,
  });

export const templatesQuery = () =>
  queryOptions({
    queryKey: toolKeys.templates,
    queryFn: async () => (await unwrap(api.GET('/api/v2/tool-templates', { params: { query: { page: 1, page_size: PAGE_SIZE_MAX } } }))).data.items,
    staleTime: Infinity,
  });

export const apiToolsFlagQuery = () =>
  queryOptions({
    queryKey: toolKeys.flag,
    queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags/api-tools'))).data,
  });

export async function setApiToolsFlag(enabled: boolean) {
  return (await unwrap(api.PUT('/api/v2/feature-flags/{flag}', { params: { path: { flag: API_TOOLS_FLAG } }, body: { enabled } }))).data;
}

export const REPORT_PAGE_SIZE = 50;

/** An import, read again every second while its job runs. */
export const importQuery = (organizationId: number, importId: number) =>
  queryOptions({
    queryKey: toolKeys.import(importId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/organizations/{org_id}/tool-imports/{import_id}', { params: { path: { org_id: organizationId, import_id: importId } } }))).data,
    refetchInterval: (query) => (query.state.data === undefined || isRunning(query.state.data) ? 1000 : false),
  });

export const isRunning = (toolImport: ToolImport) => toolImport.status === 'queued' || toolImport.status === 'running';

export const reportQuery = (organizationId: number, toolImport: ToolImport, page: number) =>
  queryOptions({
    queryKey: toolKeys.report(toolImport.id, page, toolImport.status === 'completed' ? -1 : toolImport.operations_done),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/v2/organizations/{org_id}/tool-imports/{import_id}/operations', {
            params: { path: { org_id: organizationId, import_id: toolImport.id }, query: { page, page_size: REPORT_PAGE_SIZE } },
          }),
        )
      ).data,
    placeholderData: (previous) => previous,
  });

export const MANAGERS_ONLY = 'Only owners and admins add, change, test and remove tools.';

/** After tools are added, changed or removed: the lists here, the latest imports, and the agents pages' choice of tools. */
export async function forgetToolLists(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['tools', 'list'], ['tool-imports', 'recent'], ['choices', 'tools']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** The organization's latest imports (owners and admins), to find a report again. */
export const recentImportsQuery = (organizationId: number) =>
  queryOptions({
    queryKey: ['tool-imports', 'recent', organizationId] as const,
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/organizations/{org_id}/tool-imports', { params: { path: { org_id: organizationId }, query: { page: 1, page_size: 5 } } }))).data,
  });

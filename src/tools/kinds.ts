// Every kind of tool, each one descriptor (src/tools/tool-kind.ts): the one list to add a kind to.
// From a stored tool (its secret opened) to the tool the runtime runs, by its kind.
import { apiToolKind } from './api/api-kind.js';
import { attachmentToolKind } from './attachment/attachment-kind.js';
import { mcpToolKind } from './mcp/mcp-kind.js';
import { retrievalToolKind } from './retrieval/retrieval-kind.js';
import type { RunnableTool, StoredTool, ToolKind } from './tool.js';
import type { ToolDeps } from './tool-deps.js';
import type { ToolKindDescriptor } from './tool-kind.js';
import { webSearchToolKind } from './web-search/web-search-kind.js';

/** Keyed by kind, so that the compiler refuses a kind without its descriptor. In the order the API lists the kinds. */
const KINDS: { readonly [K in ToolKind]: ToolKindDescriptor } = {
  api: apiToolKind,
  web_search: webSearchToolKind,
  retrieval: retrievalToolKind,
  attachment: attachmentToolKind,
  mcp: mcpToolKind,
};

export const TOOL_KINDS = Object.keys(KINDS) as ToolKind[];

export function toolKind(kind: ToolKind): ToolKindDescriptor {
  return KINDS[kind];
}

/** What the model is offered of a stored tool: one function, or one per tool of the MCP server it names. */
export function buildRunnableTools(stored: StoredTool, deps: ToolDeps): RunnableTool[] {
  const built = toolKind(stored.kind).create(stored, deps);
  return Array.isArray(built) ? built : [built];
}

/** A tool that cannot run (its secret cannot be opened): every call says why, so the model and the test run learn it. */
export function unusableTool(stored: StoredTool, deps: ToolDeps, reason: string): RunnableTool[] {
  return buildRunnableTools({ ...stored, secret: null, headers: null }, deps).map((usable) => ({
    ...usable,
    run: async () => ({ status: 'error' as const, output: `The tool cannot be used: ${reason}` }),
  }));
}

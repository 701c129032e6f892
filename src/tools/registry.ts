// From a stored tool (its secret opened) to the tool the runtime runs, by its kind. The one place
// that knows every kind's factory.
import { createApiTool } from './api/api-tool.js';
import { createAttachmentTool } from './attachment/index.js';
import { createRetrievalTool } from './retrieval/index.js';
import type { RunnableTool, StoredTool } from './tool.js';
import type { ToolDeps } from './tool-deps.js';
import { createWebSearchTool } from './web-search/index.js';

export function buildRunnableTool(stored: StoredTool, deps: ToolDeps): RunnableTool {
  switch (stored.kind) {
    case 'api':
      return createApiTool(stored, deps);
    case 'web_search':
      return createWebSearchTool(stored, deps);
    case 'retrieval':
      return createRetrievalTool(stored, deps);
    case 'attachment':
      return createAttachmentTool(stored, deps);
  }
}

/** A tool that cannot run (its secret cannot be opened): every call says why, so the model and the test run learn it. */
export function unusableTool(stored: StoredTool, deps: ToolDeps, reason: string): RunnableTool {
  const usable = buildRunnableTool({ ...stored, secret: null }, deps);
  return { ...usable, run: async () => ({ status: 'error', output: `The tool cannot be used: ${reason}` }) };
}

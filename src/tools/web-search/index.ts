// Builds the runnable web_search tool of a stored tool.
import type { RunnableTool, StoredTool } from '../tool.js';
import type { ToolDeps } from '../tool-deps.js';

export function createWebSearchTool(tool: StoredTool, deps: ToolDeps): RunnableTool {
  void deps;
  return {
    id: tool.id,
    kind: 'web_search',
    definition: { name: tool.name, description: tool.description, parameters: { type: 'object', properties: {} } },
    async run() {
      return { status: 'error', output: 'This tool is not available yet' };
    },
  };
}

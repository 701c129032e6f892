// The SDK's server and web-standard transport for one /mcp request, with the platform's tools and
// resources on it. mcp.routes.ts loads this module at the first request, so a start does not load the
// MCP SDK and zod (about 160 files, docs/performance.md "Suite start").
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SERVER_VERSION } from '../../version.js';
import type { Actor } from '../auth/actor.js';
import { registerMcpResources, type McpResourceDeps } from './mcp-resources.js';
import { registerMcpTools, type McpToolDeps } from './mcp-tools.js';

const INSTRUCTIONS =
  'Agent Platform: ask_agent asks one of your agents (answers come with numbered citations of the documents they drew on); ' +
  'search_corpus finds passages in a corpus. The resources list the agents you may ask and the corpora you may read.';

/** A server for the caller, connected to a stateless transport (no session id is issued). */
export async function openMcpRequestServer(toolDeps: McpToolDeps, resourceDeps: McpResourceDeps, actor: Actor, clientGone: AbortSignal) {
  const server = new McpServer({ name: 'agent-platform', title: 'Agent Platform', version: SERVER_VERSION }, { instructions: INSTRUCTIONS });
  registerMcpTools(server, toolDeps, actor, clientGone);
  registerMcpResources(server, resourceDeps, actor);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return { server, transport };
}

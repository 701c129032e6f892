// The resources of the MCP server (API.md §9): the caller's agents (those it may ask) and corpora
// (those it may read), listed, and each read as the v2 API reads it (GET /api/v2/agents/{id},
// GET /api/v2/corpora/{id}), with the same checks: what the caller may not see is "not found".
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { McpDirectory } from './mcp-agents.js';

export interface McpResourceDeps {
  agents: AgentsService;
  corpora: CorporaService;
  directory: McpDirectory;
  log: FastifyBaseLogger;
}

/** The scheme of the resources' URIs: names of this server's records, not addresses to fetch. */
export const RESOURCE_SCHEME = 'agent-platform';
const JSON_TYPE = 'application/json';
/** MCP's code for a resource that does not exist (the specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

/** The record's id in a URI the template matched; undefined when it is not an id. */
function idOf(variable: string | string[] | undefined): number | undefined {
  return typeof variable === 'string' && /^\d{1,15}$/.test(variable) ? Number(variable) : undefined;
}

/** Reads a record as JSON; what the API would answer 404 (or another refusal) becomes the MCP error for it. */
async function readJson(log: FastifyBaseLogger, uri: URL, id: number | undefined, read: (id: number) => Promise<unknown>): Promise<ReadResourceResult> {
  if (id === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource ${uri.href} not found`);
  try {
    return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(await read(id), null, 2) }] };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new McpError(RESOURCE_NOT_FOUND, error.message);
    if (error instanceof AppError && error.status < 500) throw new McpError(ErrorCode.InvalidRequest, error.message);
    log.error({ err: error, uri: uri.href }, 'reading an MCP resource failed');
    throw new McpError(ErrorCode.InternalError, 'The server failed while reading the resource; its log has the details');
  }
}

/** One kind of record listed and read: its URIs are `agent-platform://<path>/<id>`. */
interface ListedKind {
  name: string;
  path: string;
  title: string;
  description: string;
  list(): Promise<{ id: number; name: string; title: string; description: string }[]>;
  read(id: number): Promise<unknown>;
}

export function registerMcpResources(server: McpServer, deps: McpResourceDeps, actor: Actor): void {
  const kinds: ListedKind[] = [
    {
      name: 'agent',
      path: 'agents',
      title: 'Agent',
      description: 'An agent you may ask (with ask_agent): its configuration as the API reads it',
      list: async () =>
        (await deps.directory.askableAgents(actor)).map((agent) => ({
          id: agent.id,
          name: agent.alias ?? `agent-${agent.id}`,
          title: agent.name,
          description: agent.description || `Agent ${agent.id}: ${agent.name}`,
        })),
      read: (id) => deps.agents.get(actor, id),
    },
    {
      name: 'corpus',
      path: 'corpora',
      title: 'Corpus',
      description: 'A corpus you may read (search it with search_corpus): its settings and document counts',
      list: async () =>
        (await deps.directory.readableCorpora(actor)).map((corpus) => ({
          id: corpus.id,
          name: `corpus-${corpus.id}`,
          title: corpus.name,
          description: corpus.description || `Corpus ${corpus.id}: ${corpus.name}`,
        })),
      read: (id) => deps.corpora.get(actor, id),
    },
  ];
  for (const kind of kinds) {
    const list = async () => ({
      resources: (await kind.list()).map(({ id, ...listed }) => ({ uri: `${RESOURCE_SCHEME}://${kind.path}/${id}`, ...listed, mimeType: JSON_TYPE })),
    });
    server.registerResource(
      kind.name,
      new ResourceTemplate(`${RESOURCE_SCHEME}://${kind.path}/{id}`, { list }),
      { title: kind.title, description: kind.description, mimeType: JSON_TYPE },
      (uri, variables) => readJson(deps.log, uri, idOf(variables.id), kind.read),
    );
  }
}

// The functions an MCP server tool offers the model, one per chosen tool of the server: each call
// opens a session with the server (within the call's deadline, byte cap and cancellation, through the
// egress client), calls the tool by its name on the server, and gives the model its content as text.
// The tool's secret and header values are taken out of everything the server answers, as for API tools.
import type { ApiAuth } from '../api/config.js';
import { capOutput } from '../api/response-text.js';
import { secretForms, withoutSecret } from '../api/secret-forms.js';
import type { RemoteToolList, RunnableTool, StoredTool, ToolOutcome } from '../tool.js';
import type { ToolDeps } from '../tool-deps.js';
import { callResultText, describeMcpFailure } from './call-result.js';
import type { McpToolConfig } from './config.js';
import { withMcpSession, type McpServerTarget, type McpSessionBounds, type McpSessionDeps } from './connection.js';
import { MAX_LISTED_TOOLS, offeredTools, remoteToolList, type ListedTool } from './remote-tools.js';

/** Header values shorter than this are not looked for in answers: a region or a version is no credential, and hiding it would hide words. */
const SHORTEST_HIDDEN_VALUE = 8;
/** Pages of a listing read at most. */
const MAX_LISTING_PAGES = 20;

export function targetOf(stored: StoredTool): McpServerTarget {
  return { config: stored.config as McpToolConfig, secret: stored.secret, headers: stored.headers ?? {} };
}

export function sessionDepsOf(deps: Pick<ToolDeps, 'egress' | 'stdioCommands'>): McpSessionDeps {
  return { egress: deps.egress, stdioCommands: deps.stdioCommands ?? [] };
}

/** Every form of the secret and of the longer header values, as they may be echoed. */
export function hiddenForms(target: McpServerTarget): string[] {
  const bearer: ApiAuth = { type: 'bearer' };
  const values = [target.secret, ...Object.values(target.headers).filter((value) => value.length >= SHORTEST_HIDDEN_VALUE)];
  return [...new Set(values.flatMap((value) => secretForms(bearer, value)))].sort((a, b) => b.length - a.length);
}

/** The server's tools now, as kept: every page of the listing, within one session. */
export function listServerTools(target: McpServerTarget, deps: McpSessionDeps, bounds: McpSessionBounds, listedOn: string): Promise<RemoteToolList> {
  return withMcpSession(target, deps, bounds, async ({ client, options, transport }) => {
    const listed: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LISTING_PAGES && listed.length <= MAX_LISTED_TOOLS; page++) {
      const answer = await client.listTools(cursor === undefined ? {} : { cursor }, options);
      listed.push(...answer.tools);
      cursor = answer.nextCursor;
      if (cursor === undefined || cursor === '') break;
    }
    return remoteToolList(listed, transport, listedOn);
  });
}

export function createMcpTools(stored: StoredTool, deps: Pick<ToolDeps, 'egress' | 'stdioCommands' | 'maxOutputCharacters'>): RunnableTool[] {
  const target = targetOf(stored);
  const forms = hiddenForms(target);
  const told = (status: ToolOutcome['status'], text: string): ToolOutcome => ({ status, output: capOutput(withoutSecret(text, forms), deps.maxOutputCharacters) });
  return offeredTools(stored.name, target.config, stored.remoteTools).map(({ remote, functionName }) => ({
    id: stored.id,
    kind: 'mcp' as const,
    remoteName: remote.name,
    definition: { name: functionName, description: remote.description, parameters: remote.input_schema },
    async run(input, context): Promise<ToolOutcome> {
      const bounds = { timeoutMs: context.timeoutMs, maxResponseBytes: context.maxResponseBytes, signal: context.signal };
      try {
        const result = await withMcpSession(target, sessionDepsOf(deps), bounds, ({ client, options }) => client.callTool({ name: remote.name, arguments: input }, undefined, options));
        // A local server's answer comes through no HTTP client: its size is checked here.
        const size = Buffer.byteLength(JSON.stringify(result));
        if (size > context.maxResponseBytes) return told('error', `The call failed: the answer of the MCP server is larger than the limit of ${context.maxResponseBytes} bytes`);
        const text = callResultText(result as Record<string, unknown>);
        return result.isError === true ? told('error', `The MCP tool answered with an error: ${text}`) : told('ok', text);
      } catch (error) {
        return told('error', describeMcpFailure(error).message);
      }
    },
  }));
}

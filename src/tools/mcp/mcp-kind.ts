// The MCP server tool as a kind: a remote server by URL (the egress rules judge it when saved and at
// every request) or a local one by a command the operator lists; its headers sealed like the secret;
// its tools listed when it is written and on refresh, and the chosen ones offered as functions.
import { now } from '../../clock.js';
import { BadRequest, type ErrorDetail, UpstreamError, UpstreamTimeout } from '../../errors.js';
import { EgressRefused } from '../../net/egress-errors.js';
import { withoutSecret } from '../api/secret-forms.js';
import type { ToolKindDescriptor } from '../tool-kind.js';
import { destinationProblems } from '../web-search/web-search-kind.js';
import { describeMcpFailure } from './call-result.js';
import { McpToolConfig, RESERVED_HEADERS } from './config.js';
import { McpCommandRefused, rootOf } from './connection.js';
import { createMcpTools, hiddenForms, listServerTools, sessionDepsOf, targetOf } from './mcp-tool.js';
import { chosenToolProblems } from './remote-tools.js';

function remoteProblems(config: McpToolConfig, hasSecret: boolean, at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const url = new URL(config.url!);
  if (url.username !== '' || url.password !== '') problems.push({ pointer: `${at}/url`, message: 'must not carry a user name or password: give them as headers or the secret' });
  for (const name of Object.keys(config.headers ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) problems.push({ pointer: `${at}/headers/${name}`, message: 'is written by the MCP transport itself' });
    if (lower === 'authorization' && hasSecret) problems.push({ pointer: `${at}/headers/${name}`, message: 'cannot be given with a secret, which is sent as Authorization: Bearer' });
  }
  return problems;
}

function localProblems(config: McpToolConfig, hasSecret: boolean, stdioCommands: readonly string[], at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!stdioCommands.includes(config.command!)) {
    const why = stdioCommands.length === 0 ? 'local MCP servers are off on this server (MCP_STDIO_COMMANDS is empty)' : 'is not one of the commands the operator allows (MCP_STDIO_COMMANDS)';
    problems.push({ pointer: `${at}/command`, message: why });
  }
  for (const field of ['transport', 'headers'] as const) if (config[field] !== undefined) problems.push({ pointer: `${at}/${field}`, message: 'goes with url (a remote server), not command' });
  if (hasSecret) problems.push({ pointer: '/body/secret', message: 'a local MCP server takes no secret' });
  return problems;
}

export const mcpToolKind: ToolKindDescriptor<McpToolConfig> = {
  kind: 'mcp',
  settings: McpToolConfig,
  // Like API tools, a remote server is a service the organization names, reached with its credentials.
  featureFlag: 'api-tools',
  takesSecret: true,
  sealsHeaders: true,
  // The model never reads it: each of the server's tools is offered with its own description.
  defaultDescription: 'The tools of an MCP server',
  settingsProblems(config, { allowList, hasSecret, at, stdioCommands = [] }) {
    if ((config.url === undefined) === (config.command === undefined)) {
      return [{ pointer: at, message: config.url === undefined ? 'needs url (a remote server) or command (a local one)' : 'gives url and command: only one may be given' }];
    }
    if (config.args !== undefined && config.command === undefined) return [{ pointer: `${at}/args`, message: 'goes with command, not url' }];
    if (config.command !== undefined) return localProblems(config, hasSecret, stdioCommands, at);
    const refused = destinationProblems(config.url, allowList, `${at}/url`);
    return refused.length > 0 ? refused : remoteProblems(config, hasSecret, at);
  },
  remoteTools: {
    async list(stored, deps, bounds) {
      const target = targetOf(stored);
      try {
        return await listServerTools(target, sessionDepsOf(deps), bounds, now());
      } catch (thrown) {
        const error = rootOf(thrown);
        if (error instanceof EgressRefused) throw new BadRequest(error.message, [{ pointer: '/body/config/url', message: error.message }]);
        if (error instanceof McpCommandRefused) throw new BadRequest(error.message, [{ pointer: '/body/config/command', message: error.message }]);
        const { message, timedOut } = describeMcpFailure(error);
        const told = `The tools of the MCP server could not be listed: ${withoutSecret(message, hiddenForms(target))}`;
        throw timedOut ? new UpstreamTimeout(told) : new UpstreamError(told);
      }
    },
    problems: chosenToolProblems,
  },
  create: createMcpTools,
};

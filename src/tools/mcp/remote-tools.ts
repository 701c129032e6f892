// The tools an MCP server lists, as kept with the tool that names the server: each with its name on
// the server, description and input schema, and why agents cannot be given it when its schema cannot
// be checked here (patterns RE2 cannot run, not an object schema). And the functions the model is
// offered: the chosen tools, each under a name made from the tool's and its own, unique, within the 64
// characters providers accept, and the same at every answer.
import { createHash } from 'node:crypto';
import type { ErrorDetail } from '../../errors.js';
import { schemaProblems } from '../json-schema.js';
import type { JsonSchema, RemoteTool, RemoteToolList } from '../tool.js';
import { MAX_OFFERED_TOOLS, type McpToolConfig } from './config.js';

/** Most tools of one server kept; a server listing more is cut there (the rest cannot be chosen). */
export const MAX_LISTED_TOOLS = 500;
/** Largest input schema of one tool, as JSON. */
const MAX_SCHEMA_BYTES = 64 * 1024;
const MAX_DESCRIPTION = 2000;

/** A tool as the MCP client lists it (the SDK's Tool, the fields read here). */
export interface ListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The input schema as the model is given it, or why it cannot be: an object schema that Ajv and RE2 can check. */
function checkedSchema(inputSchema: unknown): { schema: JsonSchema; problem: string | null } {
  if (!isObject(inputSchema)) return { schema: { type: 'object' }, problem: 'its input schema is not a JSON object' };
  // `$schema` names the server's draft; the arguments are checked with this server's, and the model needs none.
  const { $schema: _draft, ...schema } = inputSchema;
  if (JSON.stringify(schema).length > MAX_SCHEMA_BYTES) return { schema: { type: 'object' }, problem: `its input schema is larger than ${MAX_SCHEMA_BYTES} bytes` };
  if (schema.type !== 'object') return { schema, problem: 'its input schema is not of type object' };
  const problems = schemaProblems(schema);
  if (problems.length === 0) return { schema, problem: null };
  const first = problems[0]!;
  return { schema, problem: `its input schema ${first.path === '' ? 'is refused' : `at ${first.path}`}: ${first.message}` };
}

/** What the server listed, as kept: names checked, descriptions cut, schemas checked. */
export function remoteToolList(listed: readonly ListedTool[], transport: RemoteToolList['transport'], listedOn: string): RemoteToolList {
  const seen = new Set<string>();
  const tools: RemoteTool[] = [];
  for (const tool of listed.slice(0, MAX_LISTED_TOOLS)) {
    if (typeof tool.name !== 'string' || tool.name === '' || tool.name.length > 128 || seen.has(tool.name)) continue;
    seen.add(tool.name);
    const description = (tool.description ?? tool.title ?? '').trim() || `The ${tool.name} tool of an MCP server`;
    const { schema, problem } = checkedSchema(tool.inputSchema);
    tools.push({ name: tool.name, description: description.slice(0, MAX_DESCRIPTION), input_schema: schema, problem });
  }
  return { listed_on: listedOn, transport, tools, left_out: Math.max(0, listed.length - MAX_LISTED_TOOLS) };
}

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name the model calls a server's tool by: `<tool>__<remote>` when that is a valid name of at most
 * 64 characters; else cut, other characters made `_`, and ended by 8 hex digits of a hash of both
 * names, so that two remote names that read alike stay apart and a name is the same at every answer.
 */
export function functionNameOf(toolName: string, remoteName: string): string {
  const plain = `${toolName}__${remoteName}`;
  if (FUNCTION_NAME.test(plain)) return plain;
  const hash = createHash('sha256').update(`${toolName}\u0000${remoteName}`).digest('hex').slice(0, 8);
  return `${plain.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64 - 9)}_${hash}`;
}

export interface OfferedTool {
  remote: RemoteTool;
  functionName: string;
}

/** The server's tools agents are given: the chosen ones (or all) that can be, in the order chosen, at most MAX_OFFERED_TOOLS. */
export function offeredTools(toolName: string, config: Pick<McpToolConfig, 'tools'>, list: RemoteToolList | null | undefined): OfferedTool[] {
  if (!list) return [];
  const byName = new Map(list.tools.map((tool) => [tool.name, tool]));
  const chosen = config.tools === undefined ? list.tools : config.tools.flatMap((name) => byName.get(name) ?? []);
  const names = new Set<string>();
  const offered: OfferedTool[] = [];
  for (const remote of chosen) {
    if (remote.problem !== null || offered.length >= MAX_OFFERED_TOOLS) continue;
    const functionName = functionNameOf(toolName, remote.name);
    // Only a server naming a tool after another's hashed name could make two alike: the first keeps it.
    if (names.has(functionName)) continue;
    names.add(functionName);
    offered.push({ remote, functionName });
  }
  return offered;
}

/** The chosen tools the server does not list or agents cannot be given, each a detail of a 400. */
export function chosenToolProblems(config: Pick<McpToolConfig, 'tools'>, list: RemoteToolList, at: string): ErrorDetail[] {
  const byName = new Map(list.tools.map((tool) => [tool.name, tool]));
  if (config.tools === undefined) {
    const usable = list.tools.filter((tool) => tool.problem === null).length;
    return usable > MAX_OFFERED_TOOLS ? [{ pointer: `${at}/tools`, message: `is needed: the server lists ${usable} tools agents can be given, choose at most ${MAX_OFFERED_TOOLS}` }] : [];
  }
  const listedNames = list.tools.map((tool) => tool.name);
  const listed = listedNames.length > 20 ? `${listedNames.slice(0, 20).join(', ')}, …` : listedNames.join(', ') || 'none';
  return config.tools.flatMap((name, index): ErrorDetail[] => {
    const tool = byName.get(name);
    if (tool === undefined) return [{ pointer: `${at}/tools/${index}`, message: `names no tool of the server (it lists: ${listed})` }];
    if (tool.problem !== null) return [{ pointer: `${at}/tools/${index}`, message: `cannot be given to agents: ${tool.problem}` }];
    return [];
  });
}

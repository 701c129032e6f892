// A kind of tool, described once: the schema of its settings, the rules of them the schema cannot
// say, whether it takes a secret, and the factory of the tool the runtime runs. The kinds are listed
// in src/tools/kinds.ts; nothing else branches on a tool's kind.
import type { TSchema } from '@sinclair/typebox';
import type { ErrorDetail } from '../errors.js';
import type { AllowList } from '../net/allowed-hosts.js';
import type { FeatureFlag } from '../modules/flags/feature-flags.js';
import type { RemoteToolList, RunnableTool, StoredTool, ToolKind } from './tool.js';
import type { ToolDeps } from './tool-deps.js';

/** What the rules of a tool's settings are checked against when the tool is written. */
export interface SettingsContext {
  /** Whether the tool will have a secret (sent now, or kept). */
  hasSecret: boolean;
  allowList: AllowList;
  /** The corpora of the caller's organization among these ids. */
  existingCorpora(corpusIds: number[]): Promise<number[]>;
  /** Where the settings are in the request, e.g. /body/config. */
  at: string;
  /** Commands of local MCP servers the operator allows (MCP_STDIO_COMMANDS); none when absent. */
  stdioCommands?: readonly string[];
}

/** Bounds of one request to another server made while a tool is written (a listing of its tools). */
export interface RemoteRequestBounds {
  timeoutMs: number;
  maxResponseBytes: number;
}

/** How a kind whose tool offers another server's tools (mcp) lists them, and checks the choice among them. */
export interface RemoteToolsOfKind<Settings> {
  /** Asks the server for its tools now; a failure is thrown as the AppError to answer (400, 502, 504). */
  list(stored: StoredTool, deps: ToolDeps, bounds: RemoteRequestBounds): Promise<RemoteToolList>;
  /** What the settings choose that the listing cannot give, each a detail of a 400. */
  problems(settings: Settings, list: RemoteToolList, at: string): ErrorDetail[];
}

export interface ToolKindDescriptor<Settings = Record<string, unknown>> {
  kind: ToolKind;
  /** The settings' TypeBox schema, its defaults filled in when a tool is written. */
  settings: TSchema;
  /** The flag that gates making, changing, testing and running tools of the kind, where one does. */
  featureFlag?: FeatureFlag;
  /** Whether a tool of the kind may have a secret (an API key, token or password). */
  takesSecret: boolean;
  /** What the model is told a tool of the kind does when its maker says nothing; undefined: the maker must say. */
  defaultDescription?: string;
  /** The settings' problems beyond their schema (settings already valid by it), each a detail of one 400. */
  settingsProblems(settings: Settings, context: SettingsContext): ErrorDetail[] | Promise<ErrorDetail[]>;
  /** The `headers` of its settings are sealed at rest like the secret and read back as `****` (their values are often credentials). */
  sealsHeaders?: boolean;
  /** For a tool that offers the tools of another server: how they are listed when it is written and refreshed. */
  remoteTools?: RemoteToolsOfKind<Settings>;
  /** The tool the runtime runs, from a stored one whose secret is opened; or the functions it offers, where it offers several (mcp). */
  create(stored: StoredTool, deps: ToolDeps): RunnableTool | RunnableTool[];
}

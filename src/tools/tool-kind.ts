// A kind of tool, described once: the schema of its settings, the rules of them the schema cannot
// say, whether it takes a secret, and the factory of the tool the runtime runs. The kinds are listed
// in src/tools/kinds.ts; nothing else branches on a tool's kind.
import type { TSchema } from '@sinclair/typebox';
import type { ErrorDetail } from '../errors.js';
import type { AllowList } from '../net/allowed-hosts.js';
import type { RunnableTool, StoredTool, ToolKind } from './tool.js';
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
}

export interface ToolKindDescriptor<Settings = Record<string, unknown>> {
  kind: ToolKind;
  /** The settings' TypeBox schema, its defaults filled in when a tool is written. */
  settings: TSchema;
  /** Whether a tool of the kind may have a secret (an API key, token or password). */
  takesSecret: boolean;
  /** What the model is told a tool of the kind does when its maker says nothing; undefined: the maker must say. */
  defaultDescription?: string;
  /** The settings' problems beyond their schema (settings already valid by it), each a detail of one 400. */
  settingsProblems(settings: Settings, context: SettingsContext): ErrorDetail[] | Promise<ErrorDetail[]>;
  /** The tool the runtime runs, from a stored one whose secret is opened. */
  create(stored: StoredTool, deps: ToolDeps): RunnableTool;
}

// What the runtime's tool loop asks of a tool, whatever its kind (API operation, web search, retrieval,
// attachments): a name and a JSON Schema the model is shown, and a run that takes the model's
// arguments and gives back what the model will read. Every outbound request of a run goes through the
// egress client; a run never throws for the tool's own failure (it reports it in the outcome), so that
// the model can be told and the call recorded.
import type { ToolKind } from '../db/schema.js';
import type { Actor } from '../modules/auth/actor.js';

export type { ToolKind };

/** JSON Schema of an object, as the model is given it. */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  /** Unique among the tools of one answer: [a-zA-Z0-9_-]{1,64}, as every provider accepts. */
  name: string;
  description: string;
  /** An object schema: the arguments the model must give. */
  parameters: JsonSchema;
  /** Whether the provider must keep the arguments to the schema exactly (a client's function tool may ask it). */
  strict?: boolean;
}

export interface ToolRunContext {
  actor: Actor;
  /** The thread of the answer (attachments are read from it); null for a test run. */
  threadId: number | null;
  /** Aborted when the client goes away or the answer's deadline passes. */
  signal: AbortSignal;
  /** Deadline of this one call (LIMIT_TOOL_TIMEOUT_MS). */
  timeoutMs: number;
  /** Largest response body read from an upstream service. */
  maxResponseBytes: number;
  /**
   * Reserves `count` numbers for passages of corpora the tool found and answers the first: an answer
   * numbers them after the passages of its prompt, so that they are cited with the same marks. Absent
   * (a test run): numbered from 1.
   */
  numberPassages?: (count: number) => number;
}

/** A passage of a corpus a tool found and numbered: it becomes a citation when the answer cites its number. */
export interface FoundPassage {
  number: number;
  document_id: number;
  corpus_id: number;
  source: string;
  text: string;
  page: number | null;
  score: number;
}

/** The HTTP request a run made, as shown to people: secrets replaced by a mask. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface ToolOutcome {
  /** ok: the tool answered; error: it failed, and `output` says why in words the model can use. */
  status: 'ok' | 'error';
  /** What the model reads: text or JSON as text, already cut to the runtime's output cap by the tool where it is large. */
  output: string;
  /** The upstream HTTP status, where one answered. */
  httpStatus?: number;
  request?: SentRequest;
  /** Cost in USD the call incurred (hosted search APIs priced per call), 0 when free or unknown. */
  cost?: number;
  /** Passages of corpora in the output, by their numbers (retrieval tools). */
  passages?: FoundPassage[];
}

/** A tool of another server (an MCP server's), as listed when the tool naming the server was saved or refreshed. */
export interface RemoteTool {
  /** Its name on the server, what a call names. */
  name: string;
  description: string;
  input_schema: JsonSchema;
  /** Why agents cannot be given it (its schema cannot be checked here); null when they can. */
  problem: string | null;
}

export interface RemoteToolList {
  /** When the server was last asked (ISO 8601). */
  listed_on: string;
  /** The transport the server answered on. */
  transport: 'streamable_http' | 'sse' | 'stdio';
  tools: RemoteTool[];
  /** How many tools the server listed beyond those kept. */
  left_out: number;
}

/** A tool as stored, its secret opened: what a factory of its kind builds a RunnableTool from. */
export interface StoredTool {
  id: number;
  organization_id: number;
  kind: ToolKind;
  /** The name the model sees (ToolDefinition.name). */
  name: string;
  description: string;
  /** The kind's own settings, validated by the kind's config schema when written. */
  config: Record<string, unknown>;
  /** The opened secret (API key, token, password), null where the tool has none. */
  secret: string | null;
  /** The request headers, opened, of a kind that seals them (mcp); their values in `config` are masked. */
  headers?: Record<string, string> | null;
  /** The tools of the server it names, as last listed (mcp). */
  remoteTools?: RemoteToolList | null;
}

export interface RunnableTool {
  id: number;
  kind: ToolKind;
  /** Where one stored tool offers several functions (an MCP server's tools): the remote tool's name. */
  remoteName?: string;
  definition: ToolDefinition;
  run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolOutcome>;
}

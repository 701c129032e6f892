// A client's function tools, tool choice and JSON answer format, as chat completions and the Responses
// API each write them, made into the ask's ClientAsk (runtime/client-ask.ts). Only function tools exist
// here: OpenAI's built-in tools (web search, file search, code interpreter…) and anything else this
// server cannot honour are a 400 naming the field, never dropped in silence.
import { BadRequest } from '../../errors.js';
import type { JsonAnswerFormat, ModelToolChoice } from '../../providers/chat/chat-model.js';
import type { ToolDefinition } from '../../tools/index.js';
import type { ClientAsk } from '../runtime/client-ask.js';

/** A function tool, whichever door it came through. */
export interface FunctionTool {
  type: string;
  name?: string | undefined;
  description?: string | undefined;
  parameters?: Record<string, unknown> | null | undefined;
  strict?: boolean | null | undefined;
}

/** A tool choice: none, auto, required, or the name of one function. */
export type ToolChoiceInput = 'none' | 'auto' | 'required' | { type: string; name?: string | undefined };

export interface FormatInput {
  type: string;
  name?: string | undefined;
  description?: string | undefined;
  schema?: Record<string, unknown> | undefined;
  strict?: boolean | null | undefined;
}

export interface ClientToolsInput {
  tools?: FunctionTool[] | undefined;
  toolChoice?: ToolChoiceInput | undefined;
  format?: FormatInput | undefined;
  /** The most tokens the client wants in the answer (max_output_tokens, max_completion_tokens). */
  maxTokens?: number | null | undefined;
  /** The body fields these came in. */
  fields: ClientAsk['fields'];
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const NO_ARGUMENTS = { type: 'object', properties: {} };

const refuse = (pointer: string, message: string, detail: string) => new BadRequest(message, [{ pointer, message: detail }]);

function definitionsOf(tools: FunctionTool[], field: string): ToolDefinition[] {
  const seen = new Set<string>();
  return tools.map((tool, index) => {
    if (tool.type !== 'function') {
      throw refuse(`${field}/${index}/type`, `Tools of type ${tool.type} are not supported: only function tools, which the client runs itself`, 'is not function');
    }
    const name = tool.name ?? '';
    if (!NAME.test(name)) throw refuse(`${field}/${index}`, 'A function tool’s name is 1 to 64 letters, digits, _ or -', 'has no valid name');
    if (seen.has(name)) throw refuse(`${field}/${index}`, `Two tools are named ${name}`, 'repeats a name');
    seen.add(name);
    const strict = typeof tool.strict === 'boolean' ? { strict: tool.strict } : {};
    return { name, description: tool.description ?? '', parameters: tool.parameters ?? NO_ARGUMENTS, ...strict };
  });
}

function choiceOf(choice: ToolChoiceInput | undefined, names: string[], field: string): ModelToolChoice | 'none' {
  if (choice === undefined || choice === 'auto') return 'auto';
  if (choice === 'none') return 'none';
  if (names.length === 0) throw refuse(field, `tool_choice ${typeof choice === 'string' ? choice : 'naming a function'} needs tools`, 'names no tool given');
  if (choice === 'required') return 'required';
  if (choice.type !== 'function') throw refuse(field, `A tool_choice of type ${choice.type} is not supported: none, auto, required or a function`, 'is not supported');
  if (choice.name === undefined || !names.includes(choice.name)) throw refuse(field, `tool_choice names ${choice.name ?? 'no function'}, which is not among the tools`, 'names no tool given');
  return { tool: choice.name };
}

function formatOf(format: FormatInput | undefined, field: string): JsonAnswerFormat | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type !== 'json_schema') throw refuse(`${field}/type`, `A response format of type ${format.type} is not supported: text, json_object or json_schema`, 'is not supported');
  if (format.name === undefined || !NAME.test(format.name)) throw refuse(field, 'A json_schema format needs a name of 1 to 64 letters, digits, _ or -', 'has no valid name');
  if (format.schema === undefined) throw refuse(field, 'A json_schema format needs its schema', 'has no schema');
  return {
    type: 'json',
    schema: format.schema,
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
    ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
  };
}

/** The ask's ClientAsk, or undefined where the client brought no tools, format or answer bound. */
export function clientAskOf(input: ClientToolsInput): ClientAsk | undefined {
  const tools = definitionsOf(input.tools ?? [], input.fields.tools);
  const choice = choiceOf(input.toolChoice, tools.map((tool) => tool.name), input.fields.toolChoice);
  const responseFormat = formatOf(input.format, input.fields.responseFormat);
  const maxTokens = input.maxTokens ?? undefined;
  if (tools.length === 0 && responseFormat === undefined && maxTokens === undefined) return undefined;
  // none: the client's tools are not offered (the agent's own still are: the agent decides).
  return { tools: choice === 'none' ? [] : tools, toolChoice: choice === 'none' ? 'auto' : choice, responseFormat, maxTokens, fields: input.fields };
}

/** A call's arguments as OpenAI gives them: JSON text (the model's own text where it was not JSON). */
export const argumentsText = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input ?? {}));

// One round of tool calls: the calls the model asked for in one step, checked and run. A call of a
// tool that is not among the answer's, or with arguments its schema refuses, is not run: the model is
// told what was wrong and has one round to repair it. A call identical to an earlier one of the same
// answer is not run again. Each result passes the context guardrails before the model reads it, and
// is cut to the output cap. Tool output is data: it goes back as a `tool` message and nothing in it can
// change the instructions or the set of tools, which is fixed when the answer starts.
import type { ChatMessage, ModelToolCall } from '../../providers/chat/chat-model.js';
import type { GuardrailVerdict } from '../../guardrails/index.js';
import type { ToolCallRecord, ToolCallStatus } from './answer.js';

export type { ToolCallRecord, ToolCallStatus };
import { checkArguments, describeProblems, type FoundPassage, type RunnableTool, type ToolDefinition, type ToolOutcome, type ToolRunContext } from '../../tools/index.js';



export interface ToolRoundOptions {
  context: Omit<ToolRunContext, 'timeoutMs' | 'maxResponseBytes'>;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Most characters of a result the model is given. */
  maxOutputCharacters: number;
  /** The context guardrails, applied to each result before the model reads it. */
  guardContext: (text: string) => Promise<{ text: string; blocked: boolean; verdicts: GuardrailVerdict[] }>;
  /** Milliseconds on a monotonic clock. */
  timer: () => number;
}

export interface ToolRound {
  /** The assistant message with the calls, then one `tool` message per call. */
  messages: ChatMessage[];
  records: ToolCallRecord[];
  /** Guardrail verdicts on the results. */
  verdicts: GuardrailVerdict[];
  /** What the model got wrong (unknown tool, arguments refused) in this round, if anything. */
  mistakes: string[];
  /** USD the calls cost (hosted search priced per call). */
  cost: number;
  /** Passages of corpora the calls found (retrieval tools), numbered after the answer's others, each through the context guardrails. */
  passages: FoundPassage[];
}

const RECORDED_OUTPUT_CHARACTERS = 2_000;

export function cut(text: string, characters: number): string {
  return text.length <= characters ? text : `${text.slice(0, characters)}… [cut: ${text.length - characters} more characters]`;
}

/** Identical calls have the same name and the same arguments, whatever the order of their keys. */
function callKey(call: ModelToolCall): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, item]) => [key, canonical(item)]))
        : value;
  return `${call.name}\u0000${JSON.stringify(canonical(call.arguments))}`;
}

export class ToolBox {
  private readonly byName: Map<string, RunnableTool>;
  private readonly made = new Set<string>();

  constructor(tools: RunnableTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  }

  get definitions(): ToolDefinition[] {
    return [...this.byName.values()].map((tool) => tool.definition);
  }

  get size(): number {
    return this.byName.size;
  }

  /** Whether every call of the round repeats an earlier one: the model is going round in circles. */
  allRepeated(calls: ModelToolCall[]): boolean {
    return calls.length > 0 && calls.every((call) => this.made.has(callKey(call)));
  }

  async runRound(calls: ModelToolCall[], text: string, step: number, options: ToolRoundOptions): Promise<ToolRound> {
    const round: ToolRound = { messages: [{ role: 'assistant', content: text, toolCalls: calls }], records: [], verdicts: [], mistakes: [], cost: 0, passages: [] };
    // Calls of one round are independent of each other: they run side by side.
    const results = await Promise.all(calls.map((call) => this.runCall(call, step, options)));
    for (const [index, result] of results.entries()) {
      const call = calls[index]!;
      round.records.push(result.record);
      round.verdicts.push(...result.verdicts);
      if (result.mistake !== undefined) round.mistakes.push(result.mistake);
      round.cost += result.cost;
      round.passages.push(...result.passages);
      round.messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: result.modelText, isError: result.record.status !== 'ok' });
    }
    return round;
  }

  private async runCall(call: ModelToolCall, step: number, options: ToolRoundOptions) {
    const tool = this.byName.get(call.name);
    const record = (status: ToolCallStatus, output: string, extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
      id: call.id,
      tool_id: tool?.id ?? null,
      name: call.name,
      input: call.arguments,
      output: cut(output, RECORDED_OUTPUT_CHARACTERS),
      status,
      http_status: null,
      latency_ms: 0,
      step,
      ...extra,
    });
    const refused = (status: ToolCallStatus, text: string, mistake?: string) => ({ record: record(status, text), modelText: text, verdicts: [], mistake, cost: 0, passages: [] as FoundPassage[] });

    if (tool === undefined) {
      const names = [...this.byName.keys()].join(', ');
      const text = `There is no tool named "${call.name}". The tools are: ${names}.`;
      return refused('invalid', text, text);
    }
    const checked = checkedArguments(tool, call.arguments);
    if (typeof checked === 'string') {
      const problem = checked;
      const text = `The arguments of "${call.name}" do not match its schema: ${problem}. Call it again with arguments that do.`;
      return refused('invalid', text, `"${call.name}" called with arguments that do not match its schema: ${problem}`);
    }
    const key = callKey(call);
    if (this.made.has(key)) return refused('repeated', 'This call was already made with the same arguments in this answer; use its result above.');
    this.made.add(key);

    const startedAt = options.timer();
    const context = { ...options.context, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes };
    // Tools report their failures in the outcome; one that throws anyway fails this call, not the answer.
    const outcome = await tool.run(checked, context).catch((): ToolOutcome => ({ status: 'error', output: `The tool "${call.name}" failed.` }));
    const latency = Math.round(options.timer() - startedAt);
    const guarded = await options.guardContext(cut(outcome.output, options.maxOutputCharacters));
    const modelText = guarded.blocked ? 'The result was withheld by a guardrail.' : guarded.text;
    return {
      record: record(guarded.blocked ? 'blocked' : outcome.status, modelText, { http_status: outcome.httpStatus ?? null, latency_ms: latency }),
      modelText,
      verdicts: guarded.verdicts,
      mistake: undefined,
      cost: outcome.cost ?? 0,
      passages: guarded.blocked ? [] : await guardedPassages(outcome.passages ?? [], options),
    };
  }
}

/**
 * The passages a tool found as a citation may show them: each through the context guardrails, as the
 * answer's own passages are (a passage blocked is no citation; one redacted is cited redacted).
 */
async function guardedPassages(passages: FoundPassage[], options: ToolRoundOptions): Promise<FoundPassage[]> {
  const guarded = await Promise.all(passages.map(async (passage) => ({ passage, guarded: await options.guardContext(passage.text) })));
  return guarded.filter(({ guarded }) => !guarded.blocked).map(({ passage, guarded }) => ({ ...passage, text: guarded.text }));
}

/** The arguments with their schema's defaults filled in, or what is wrong with them. */
function checkedArguments(tool: RunnableTool, input: unknown): Record<string, unknown> | string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return 'the arguments must be a JSON object';
  const checked = checkArguments(tool.definition.parameters, input);
  return checked.ok ? checked.value : describeProblems(checked.problems.slice(0, 5));
}

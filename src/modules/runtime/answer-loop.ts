// The steps of an answer: the model is called, and while it asks for tools, they are run and it is
// called again with their results. The tools are taken away — the model must then answer with what it
// has — after LIMIT_TOOL_STEPS rounds, once the answer has spent its budget (tokens at the
// configuration's prices and priced tool calls), or when a round only repeats earlier calls. A model
// that gets its calls wrong (an unknown tool, arguments the schema refuses) is told and has one round to
// repair them; wrong again, the answer fails. The answer's length is bounded over all its steps
// (answer-length.ts): once cut, no tool is run and the answer ends there.
// A client's own tools (the OpenAI-compatible doors) are offered beside the agent's and never run
// here: a step that calls one of them ends the answer with those calls, for the client to run and
// send back; calls of the agent's tools in that same step are not run (the model, given the client's
// results, may call them again).
import { ModelCallError, type ChatMessage, type ChatModel, type JsonAnswerFormat, type ModelToolCall, type ModelToolChoice } from '../../providers/chat/chat-model.js';
import type { GuardrailVerdict } from '../../guardrails/index.js';
import type { ToolDefinition } from '../../tools/index.js';
import { costOf, tokensOf, type Prices, type TokenCount } from './cost.js';
import { runModel, type RunFailure } from './model-run.js';
import { conversationTokens } from './prompt.js';
import type { ToolBox, ToolCallRecord, ToolRoundOptions } from './tool-calls.js';
import type { FoundPassage } from '../../tools/index.js';

export interface AnswerLimits {
  /** Rounds of tool calls. */
  toolSteps: number;
  /** USD; the tools are taken away once it is spent. */
  budgetUsd: number;
}

/** The tools a client brings (OpenAI's function tools), and whether the first step must call one. */
export interface ClientTools {
  definitions: ToolDefinition[];
  /** For the first step only: later steps leave the choice to the model. */
  choice: ModelToolChoice;
}

export interface AnswerLoopOptions {
  model: ChatModel;
  messages: ChatMessage[];
  temperature: number;
  /** Whether someone reads the answer as it is written; false: each call asks the provider for its answer whole. */
  streamed: boolean;
  /** Most tokens of the answer: each call's max tokens, and the most completion tokens counted here. */
  maxTokens: number;
  /** Most characters of the answer, over all its steps; unbounded when absent. */
  maxCharacters?: number;
  /** Passages numbered in the prompt, [1]..[passages]; those tools find are numbered after them. */
  passages: number;
  tools: ToolBox | undefined;
  /** Offered beside the agent's tools, never run: a step that calls one ends the answer. */
  clientTools?: ClientTools | undefined;
  /** Every step's answer as JSON. */
  responseFormat?: JsonAnswerFormat | undefined;
  toolRound: ToolRoundOptions;
  limits: AnswerLimits;
  prices: Prices;
  clientSignal: AbortSignal;
  stopSignal?: AbortSignal;
  timeoutMs: number;
  elapsed: () => number;
  onDelta: (text: string) => void;
  onToolCall: (record: ToolCallRecord) => void;
  onVerdicts: (verdicts: GuardrailVerdict[]) => void;
}

export interface AnsweredLoop {
  answer: string;
  cited: number[];
  tokens: TokenCount;
  /** What priced tool calls cost, USD. */
  toolCost: number;
  toolCalls: ToolCallRecord[];
  /** Passages the tools found, numbered after the prompt's: citations when the answer cites them. */
  toolPassages: FoundPassage[];
  firstTokenMs: number | null;
  /** Cut at its most tokens: finish reason length. */
  cut: boolean;
  /** The calls of the client's tools the answer ended with (finish reason tool_calls); empty otherwise. */
  clientCalls: ModelToolCall[];
  failure: RunFailure | undefined;
}

/** A call of a client's tool as the response records it: not run here. */
const clientCallRecord = (call: ModelToolCall, step: number): ToolCallRecord => ({
  id: call.id,
  tool_id: null,
  name: call.name,
  input: call.arguments,
  output: '',
  status: 'client',
  http_status: null,
  latency_ms: 0,
  step,
});

const addTokens = (sum: TokenCount, step: TokenCount): TokenCount => ({
  prompt: sum.prompt + step.prompt,
  completion: sum.completion + step.completion,
  estimated: sum.estimated || step.estimated,
});

export async function runAnswerLoop(options: AnswerLoopOptions): Promise<AnsweredLoop> {
  const messages = [...options.messages];
  const result: AnsweredLoop = {
    answer: '',
    cited: [],
    tokens: { prompt: 0, completion: 0, estimated: false },
    toolCost: 0,
    toolCalls: [],
    toolPassages: [],
    firstTokenMs: null,
    cut: false,
    clientCalls: [],
    failure: undefined,
  };
  // Passage numbers given so far: the prompt's, then those reserved by the tools, in the order they ask.
  let numbered = options.passages;
  const numberPassages = (count: number) => {
    const first = numbered + 1;
    numbered += count;
    return first;
  };
  let rounds = 0;
  let toolsTaken = options.tools === undefined || options.tools.size === 0;
  let mistakenBefore = false;
  const clientTools = options.clientTools?.definitions ?? [];
  const clientNames = new Set(clientTools.map((tool) => tool.name));

  for (let step = 1; ; step++) {
    const agentOffered = toolsTaken ? [] : options.tools!.definitions;
    const offered = [...agentOffered, ...clientTools];
    const toolChoice = step === 1 ? (options.clientTools?.choice ?? 'auto') : 'auto';
    const run = await runModel({
      model: options.model,
      request: {
        messages: [...messages],
        temperature: options.temperature,
        maxTokens: options.maxTokens,
        streamed: options.streamed,
        ...(offered.length > 0 ? { tools: offered, toolChoice } : {}),
        ...(options.responseFormat ? { responseFormat: options.responseFormat } : {}),
      },
      passages: numbered,
      clientSignal: options.clientSignal,
      ...(options.stopSignal ? { stopSignal: options.stopSignal } : {}),
      timeoutMs: options.timeoutMs,
      maxCharacters: (options.maxCharacters ?? Number.POSITIVE_INFINITY) - result.answer.length,
      elapsed: options.elapsed,
      onDelta: options.onDelta,
    });
    result.answer += run.answer;
    result.cited = [...new Set([...result.cited, ...run.cited])];
    result.firstTokenMs ??= run.firstTokenMs;
    // Where the provider gives no usage, the step's conversation and text are counted here (only then:
    // counting a conversation that grows with every tool result costs more than the step's other work).
    // Counted tokens are bounded as the text is: never more completion tokens than the answer may take.
    const unbilled = Math.max(0, options.maxTokens - result.tokens.completion);
    result.tokens = addTokens(result.tokens, tokensOf(run.usage, run.usage === undefined ? conversationTokens(messages) : 0, run.answer, unbilled));
    result.cut = run.cut;
    if (run.failure !== undefined || run.cut || options.stopSignal?.aborted) return { ...result, failure: run.failure };
    const forClient = run.toolCalls.filter((call) => clientNames.has(call.name));
    if (forClient.length > 0) {
      result.clientCalls = forClient;
      result.toolCalls.push(...forClient.map((call) => clientCallRecord(call, rounds + 1)));
      return result;
    }
    // Calls made without tools on offer are not run: the model was asked to answer.
    if (agentOffered.length === 0 || run.toolCalls.length === 0) return result;

    const circling = options.tools!.allRepeated(run.toolCalls);
    const toolRound = { ...options.toolRound, context: { ...options.toolRound.context, numberPassages } };
    const round = await options.tools!.runRound(run.toolCalls, run.answer, ++rounds, toolRound);
    result.toolCalls.push(...round.records);
    result.toolPassages.push(...round.passages);
    result.toolCost += round.cost;
    for (const record of round.records) options.onToolCall(record);
    if (round.verdicts.length > 0) options.onVerdicts(round.verdicts);
    messages.push(...round.messages);

    if (round.mistakes.length > 0 && mistakenBefore) {
      const failure = new ModelCallError('bad_response', `The model called its tools wrongly twice: ${round.mistakes.join('; ')}`);
      return { ...result, failure: { kind: 'model', error: failure } };
    }
    mistakenBefore = round.mistakes.length > 0;
    const spent = (costOf(result.tokens, options.prices) ?? 0) + result.toolCost;
    toolsTaken = circling || rounds >= options.limits.toolSteps || spent >= options.limits.budgetUsd;
  }
}

// The tool loop on its own, with a scripted model and tools in memory: rounds of calls and their
// results, the step cap, the budget, repeated calls, unknown tools and refused arguments (one repair
// round, then a failure), output cut to the cap, results passed through the context guardrails.
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatModel, ChatRequest, ModelToolCall } from '../src/providers/chat/chat-model.js';
import { runAnswerLoop, type AnswerLoopOptions } from '../src/modules/runtime/answer-loop.js';
import { ToolBox, type ToolCallRecord } from '../src/modules/runtime/tool-calls.js';
import type { RunnableTool, ToolOutcome } from '../src/tools/tool.js';
import type { Actor } from '../src/modules/auth/actor.js';

type Step = { text?: string; calls?: Omit<ModelToolCall, 'id'>[]; usage?: { prompt: number; completion: number } };

/** A model that answers each call with the next step of its script, and keeps what it was sent. */
function scriptedModel(steps: Step[]): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  let callId = 0;
  return {
    model: 'scripted',
    requests,
    async *stream(request: ChatRequest): AsyncIterable<ChatEvent> {
      requests.push(request);
      const step = steps[requests.length - 1] ?? { text: 'Done.' };
      if (step.text) yield { type: 'delta', text: step.text };
      for (const call of step.calls ?? []) yield { type: 'tool_call', call: { id: `call_${++callId}`, ...call } };
      if (step.usage) yield { type: 'usage', usage: step.usage };
    },
  };
}

function memoryTool(name: string, run: (input: Record<string, unknown>) => ToolOutcome | Promise<ToolOutcome>, id = 1): RunnableTool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    id,
    kind: 'api',
    calls,
    definition: { name, description: `The ${name} tool`, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    run: async (input) => {
      calls.push(input);
      return run(input);
    },
  };
}

const actor = { organizationId: 1, userId: 1 } as Actor;

function loopOptions(model: ChatModel, tools: RunnableTool[], overrides: Partial<AnswerLoopOptions> = {}): AnswerLoopOptions & { told: ToolCallRecord[] } {
  const told: ToolCallRecord[] = [];
  let clock = 0;
  return {
    model,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is the weather in Paris?' },
    ],
    temperature: 0,
    streamed: false,
    maxTokens: 100,
    passages: 0,
    tools: new ToolBox(tools),
    toolRound: {
      context: { actor, threadId: 1, signal: new AbortController().signal },
      timeoutMs: 1000,
      maxResponseBytes: 1024 * 1024,
      maxOutputCharacters: 100,
      guardContext: async (text) => ({ text, blocked: false, verdicts: [] }),
      timer: () => (clock += 5),
    },
    limits: { toolSteps: 5, budgetUsd: 1 },
    prices: { inputPerMillion: 0, outputPerMillion: 0 },
    clientSignal: new AbortController().signal,
    timeoutMs: 10_000,
    elapsed: () => 0,
    onDelta: () => {},
    onToolCall: (record) => told.push(record),
    onVerdicts: () => {},
    told,
    ...overrides,
  };
}

describe('the tool loop', () => {
  it('runs the calls of a round, gives the results back as tool messages, and lets the model answer', async () => {
    const weather = memoryTool('weather', ({ city }) => ({ status: 'ok', output: `Sunny in ${String(city)}`, httpStatus: 200 }));
    const model = scriptedModel([{ text: 'Let me look. ', calls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { text: 'It is sunny.' }]);
    const options = loopOptions(model, [weather]);
    const result = await runAnswerLoop(options);

    expect(result.failure).toBeUndefined();
    expect(result.answer).toBe('Let me look. It is sunny.');
    expect(weather.calls).toEqual([{ city: 'Paris' }]);
    expect(result.toolCalls).toEqual([
      { id: 'call_1', tool_id: 1, name: 'weather', input: { city: 'Paris' }, output: 'Sunny in Paris', status: 'ok', http_status: 200, latency_ms: 5, step: 1 },
    ]);
    expect(options.told).toEqual(result.toolCalls);
    const second = model.requests[1]!;
    expect(second.tools?.map((tool) => tool.name)).toEqual(['weather']);
    expect(second.messages.at(-2)).toMatchObject({ role: 'assistant', content: 'Let me look. ', toolCalls: [{ id: 'call_1', name: 'weather' }] });
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1', toolName: 'weather', content: 'Sunny in Paris', isError: false });
    // An answer sent whole is asked for whole at every step.
    expect(model.requests.map((request) => request.streamed)).toEqual([false, false]);
  });

  it('takes the tools away after the step cap, so that the model must answer', async () => {
    let n = 0;
    const weather = memoryTool('weather', () => ({ status: 'ok', output: `reading ${++n}` }));
    const steps = Array.from({ length: 10 }, (_, i) => ({ calls: [{ name: 'weather', arguments: { city: `City ${i}` } }] }));
    const model = scriptedModel(steps);
    const result = await runAnswerLoop(loopOptions(model, [weather], { limits: { toolSteps: 3, budgetUsd: 1 } }));

    expect(weather.calls).toHaveLength(3);
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]!.tools).toBeUndefined();
    // The last step was offered no tools: the calls it made anyway are not run.
    expect(result.toolCalls).toHaveLength(3);
    expect(result.failure).toBeUndefined();
  });

  it('takes the tools away once the answer has spent its budget', async () => {
    const search = memoryTool('search', () => ({ status: 'ok', output: 'results', cost: 0.01 }));
    const steps = Array.from({ length: 10 }, (_, i) => ({ calls: [{ name: 'search', arguments: { city: `C${i}` } }], usage: { prompt: 1000, completion: 10 } }));
    const model = scriptedModel(steps);
    // 1000 prompt tokens at 5 USD a million: 0.005 a step, plus 0.01 a search.
    const result = await runAnswerLoop(
      loopOptions(model, [search], { limits: { toolSteps: 10, budgetUsd: 0.04 }, prices: { inputPerMillion: 5, outputPerMillion: 0 } }),
    );
    expect(search.calls).toHaveLength(3);
    expect(result.toolCost).toBeCloseTo(0.03);
    expect(model.requests.at(-1)!.tools).toBeUndefined();
  });

  it('does not run a call again with the same arguments, and stops the tools when a round only repeats', async () => {
    const weather = memoryTool('weather', () => ({ status: 'ok', output: 'Sunny' }));
    const again = { name: 'weather', arguments: { city: 'Paris' } };
    const model = scriptedModel([{ calls: [again] }, { calls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { text: 'Sunny.' }]);
    const result = await runAnswerLoop(loopOptions(model, [weather]));

    expect(weather.calls).toHaveLength(1);
    expect(result.toolCalls.map((call) => call.status)).toEqual(['ok', 'repeated']);
    expect(model.requests[2]!.tools).toBeUndefined();
    expect(result.answer).toBe('Sunny.');
  });

  it('tells the model of an unknown tool and refused arguments once, and fails the answer when it errs again', async () => {
    const weather = memoryTool('weather', () => ({ status: 'ok', output: 'Sunny' }));
    const model = scriptedModel([
      { calls: [{ name: 'forecast', arguments: { city: 'Paris' } }] },
      { calls: [{ name: 'weather', arguments: { town: 'Paris' } }] },
    ]);
    const result = await runAnswerLoop(loopOptions(model, [weather]));

    expect(weather.calls).toHaveLength(0);
    expect(result.toolCalls.map((call) => call.status)).toEqual(['invalid', 'invalid']);
    expect(model.requests[1]!.messages.at(-1)!.content).toContain('There is no tool named "forecast"');
    expect(result.failure?.kind).toBe('model');
    expect(result.failure?.kind === 'model' && result.failure.error.message).toContain('"weather" called with arguments that do not match its schema');
  });

  it('lets the model repair a call: a refused call followed by a good one answers', async () => {
    const weather = memoryTool('weather', () => ({ status: 'ok', output: 'Sunny' }));
    const model = scriptedModel([{ calls: [{ name: 'weather', arguments: 'not json' }] }, { calls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { text: 'Sunny.' }]);
    const result = await runAnswerLoop(loopOptions(model, [weather]));
    expect(result.failure).toBeUndefined();
    expect(result.toolCalls.map((call) => call.status)).toEqual(['invalid', 'ok']);
    expect(model.requests[1]!.messages.at(-1)!.content).toContain('must be a JSON object');
  });

  it('cuts a long result to the output cap, and records a tool that throws as an error of that call', async () => {
    const long = memoryTool('weather', () => ({ status: 'ok', output: 'x'.repeat(5000) }), 1);
    const broken = memoryTool('broken', () => {
      throw new Error('socket hang up with secret sk-123');
    }, 2);
    const model = scriptedModel([{ calls: [{ name: 'weather', arguments: { city: 'A' } }, { name: 'broken', arguments: { city: 'B' } }] }, { text: 'Done.' }]);
    const result = await runAnswerLoop(loopOptions(model, [long, broken]));

    const results = model.requests[1]!.messages.filter((message) => message.role === 'tool');
    expect(results[0]!.content).toMatch(/^x{100}… \[cut: 4900 more characters\]$/);
    expect(results[1]).toMatchObject({ content: 'The tool "broken" failed.', isError: true });
    expect(result.toolCalls.map((call) => call.status)).toEqual(['ok', 'error']);
    expect(JSON.stringify(result.toolCalls)).not.toContain('sk-123');
  });

  it('passes each result through the context guardrails; a blocked one is withheld from the model', async () => {
    const lookup = memoryTool('lookup', ({ city }) => ({ status: 'ok', output: city === 'secret' ? 'password: hunter2' : 'mail bob@example.com' }));
    const model = scriptedModel([{ calls: [{ name: 'lookup', arguments: { city: 'a' } }, { name: 'lookup', arguments: { city: 'secret' } }] }, { text: 'Done.' }]);
    const verdicts: unknown[] = [];
    const options = loopOptions(model, [lookup], {
      onVerdicts: (found) => verdicts.push(...found),
      toolRound: {
        ...loopOptions(model, []).toolRound,
        guardContext: async (text) => {
          const verdict = { guardrail_id: 9, name: 'No secrets', type: 'blocked_terms' as const, stage: 'context' as const, action: 'redact' as const, findings: [] };
          if (text.includes('password')) return { text, blocked: true, verdicts: [{ ...verdict, action: 'block' as const }] };
          return { text: text.replace('bob@example.com', '[EMAIL_ADDRESS]'), blocked: false, verdicts: [verdict] };
        },
      },
    });
    const result = await runAnswerLoop(options);
    const results = model.requests[1]!.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(results).toEqual(['mail [EMAIL_ADDRESS]', 'The result was withheld by a guardrail.']);
    expect(result.toolCalls.map((call) => call.status)).toEqual(['ok', 'blocked']);
    expect(JSON.stringify(result.toolCalls)).not.toContain('hunter2');
    expect(verdicts).toHaveLength(2);
  });

  it('offers no tools when there are none, and a model without tool calls answers in one step', async () => {
    const model = scriptedModel([{ text: 'Hello.' }]);
    const result = await runAnswerLoop(loopOptions(model, [], { tools: undefined }));
    expect(result.answer).toBe('Hello.');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.tools).toBeUndefined();
  });
});

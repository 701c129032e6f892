// The test run of a tool: its arguments checked by its parameters (a 400 when they do not match,
// as the model would be told), one run as the caller outside any thread under the tool deadline and
// byte cap, timed, and what it did: the status, the upstream HTTP status, the request as sent
// (secrets masked) and the output the model would read.
import { performance } from 'node:perf_hooks';
import { BadRequest } from '../../errors.js';
import { checkArguments, type RunnableTool, type ToolOutcome } from '../../tools/index.js';
import type { Actor } from '../auth/actor.js';
import type { ToolTestResult } from './tools.schemas.js';

export interface TestRunOptions {
  /** Deadline of one call (LIMIT_TOOL_TIMEOUT_MS). */
  timeoutMs: number;
  /** Largest body read from an upstream service (LIMIT_TOOL_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Milliseconds on a monotonic clock; tests give their own. */
  timer?: () => number;
}

/** The first sentence of a failure's output, for `error`. */
function errorOf(outcome: ToolOutcome): string | null {
  if (outcome.status === 'ok') return null;
  const line = outcome.output.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

export async function runToolOnce(tool: RunnableTool, input: Record<string, unknown>, actor: Actor, options: TestRunOptions): Promise<ToolTestResult> {
  const checked = checkArguments(tool.definition.parameters, input);
  if (!checked.ok) {
    const details = checked.problems.map((problem) => ({ pointer: `/body/input${problem.path}`, message: problem.message }));
    throw new BadRequest(`The input does not match the parameters of tool "${tool.definition.name}": ${details[0]!.pointer} ${details[0]!.message}`, details);
  }
  const timer = options.timer ?? (() => performance.now());
  const startedAt = timer();
  const context = { actor, threadId: null, signal: new AbortController().signal, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes };
  const outcome = await tool.run(checked.value, context).catch((): ToolOutcome => ({ status: 'error', output: 'The tool failed: a fault of the server' }));
  return {
    status: outcome.status,
    http_status: outcome.httpStatus ?? null,
    latency_ms: Math.max(0, Math.round(timer() - startedAt)),
    request: outcome.request ?? null,
    output: outcome.output,
    error: errorOf(outcome),
  };
}

// The guardrails an answer runs under, as the runtime asks for them (guardrail.ts): the stages applied to
// whole texts, and a streaming filter for the output.
import { applyGuardrails } from './apply.js';
import type { CompiledGuardrail } from './compile.js';
import type { AgentGuardrails, StreamingGuard } from './guardrail.js';
import { GuardedStream } from './streaming-guard.js';

function passThrough(): StreamingGuard {
  return { push: (text) => text, flush: () => '', blocked: false, verdicts: [] };
}

export function agentGuardrails(guardrails: readonly CompiledGuardrail[]): AgentGuardrails {
  const output = guardrails.filter((guardrail) => guardrail.stages.includes('output'));
  return {
    apply: (stage, text) => applyGuardrails(guardrails, stage, text),
    streamOutput: () => (output.length === 0 ? passThrough() : new GuardedStream(output)),
  };
}

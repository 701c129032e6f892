// What the runtime asks of guardrails: an agent's guardrails applied at a stage to a text give the
// text to go on with and what was done. Output is also filtered as it streams: a filter holds back
// only as many characters as its longest pattern could still need, never the whole answer.
import type { GuardrailAction, GuardrailType } from '../db/schema.js';

export type { GuardrailAction, GuardrailType };
export type GuardrailStage = 'input' | 'context' | 'output';

/** Something a guardrail found: character offsets into the text it was given, end exclusive. */
export interface Finding {
  entity_type: string;
  start: number;
  end: number;
  /** Which rule found it (e.g. `luhn`, `iban_mod97`, `term`, `max_characters`). */
  rule: string;
}

/** One guardrail's verdict on one text. */
export interface GuardrailVerdict {
  guardrail_id: number;
  name: string;
  type: GuardrailType;
  stage: GuardrailStage;
  /** What was done: the guardrail's action when it found something. */
  action: GuardrailAction;
  findings: Finding[];
}

export interface StageResult {
  /** The text after every guardrail of the stage (redacted or masked where they did). */
  text: string;
  /** True when a guardrail with action `block` found something: the answer stops. */
  blocked: boolean;
  /** Only the guardrails that found something. */
  verdicts: GuardrailVerdict[];
}

/** Output guardrails over an answer as it streams. */
export interface StreamingGuard {
  /** Takes the next piece of the answer; gives the text that may be sent now (possibly ''). */
  push(text: string): string;
  /** The answer has ended: gives what was held back, filtered. */
  flush(): string;
  /** True once a `block` guardrail found something: nothing more may be sent. */
  readonly blocked: boolean;
  /** Verdicts so far, offsets into the whole answer. */
  readonly verdicts: GuardrailVerdict[];
}

/** The guardrails an answer runs under: those of the agent, enabled by the organization's flags. */
export interface AgentGuardrails {
  /** Topic guardrails may compare embeddings, hence async. */
  apply(stage: GuardrailStage, text: string): Promise<StageResult>;
  /** A filter for the output stage; passes text through unchanged when no output guardrail applies. */
  streamOutput(): StreamingGuard;
}

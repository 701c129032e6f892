// The guardrails of an ask at its first two stages: the question (input) and the passages retrieved
// for it (context; tool results pass the same stage in the tool loop). A blocked question is not
// answered; a blocked passage is withheld from the model and the rest are numbered again, so that
// markers stay [1]..[n]. What a guardrail did is recorded on the response as a guardrail action.
import type { AgentGuardrails, GuardrailStage, GuardrailVerdict, StageResult, StreamingGuard } from '../../guardrails/index.js';
import type { GuardrailActionRecord } from './answer.js';
import type { NumberedPassage } from './ask-retrieval.js';

export type { GuardrailActionRecord };

const passThrough: StreamingGuard = {
  push: (text) => text,
  flush: () => '',
  blocked: false,
  verdicts: [],
};

/** An agent without guardrails: every text passes unchanged. */
export const NO_GUARDRAILS: AgentGuardrails = {
  apply: async (_stage: GuardrailStage, text: string): Promise<StageResult> => ({ text, blocked: false, verdicts: [] }),
  streamOutput: () => passThrough,
};

export interface GuardedPassages {
  passages: NumberedPassage[];
  actions: GuardrailActionRecord[];
}

export async function guardPassages(guardrails: AgentGuardrails, found: NumberedPassage[]): Promise<GuardedPassages> {
  const actions: GuardrailActionRecord[] = [];
  const kept: NumberedPassage[] = [];
  for (const passage of found) {
    const result = await guardrails.apply('context', passage.text);
    actions.push(...result.verdicts.map((verdict) => ({ ...verdict, source: `passage of document ${passage.document_id}` })));
    if (!result.blocked) kept.push({ ...passage, text: result.text, number: kept.length + 1 });
  }
  return { passages: kept, actions };
}

/** The message a blocked answer records as its error. */
export function blockedBy(actions: GuardrailActionRecord[], stage: GuardrailStage): string {
  const blocking = actions.find((action) => action.stage === stage && action.action === 'block');
  return blocking ? `Blocked by the guardrail "${blocking.name}" (${blocking.type}) at the ${stage} stage` : `Blocked by a guardrail at the ${stage} stage`;
}

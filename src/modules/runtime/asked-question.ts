// The question of a prepared ask as an answer records it: what was asked, of which agent and
// configuration, at which prices, when and by whom.
import { OFFLINE_MODEL } from '../../providers/chat/offline-answerer.js';
import type { Actor } from '../auth/actor.js';
import type { AgentWithUsers } from '../agents/agents.repo.js';
import type { AskedQuestion } from './answer.js';
import type { AnsweringConfiguration } from './answering-model.js';

/** What of a prepared ask (ask.service.ts) its question records. */
export interface AskOrigin {
  agent: Pick<AgentWithUsers, 'id' | 'project_id'>;
  historyId: number | null;
  query: string;
  configuration: Pick<AnsweringConfiguration, 'id' | 'model' | 'input_price_per_million' | 'output_price_per_million'> | null;
}

export function askedQuestion(actor: Actor, ask: AskOrigin, at: string): AskedQuestion {
  return {
    agentId: ask.agent.id,
    projectId: ask.agent.project_id,
    historyId: ask.historyId,
    query: ask.query,
    model: ask.configuration?.model ?? OFFLINE_MODEL,
    llmConfigurationId: ask.configuration?.id ?? null,
    prices: ask.configuration ? { input: ask.configuration.input_price_per_million, output: ask.configuration.output_price_per_million } : { input: 0, output: 0 },
    askedOn: at,
    askedBy: { userId: actor.userId, email: actor.email },
  };
}

// The columns of a response row that come from the ask itself — the question and what answers it,
// written before the answer — and, for an ask that records nothing (AskInput.record false: an
// evaluation's), the whole row made in memory and presented as any response is, with id and
// thread_id 0 since no row or thread exists.
import { now } from '../../clock.js';
import { OFFLINE_MODEL } from '../../providers/chat/offline-answerer.js';
import type { Actor } from '../auth/actor.js';
import { presentResponse } from '../chat/response.presenter.js';
import type { AgentResponseView } from '../chat/responses.schemas.js';
import type { AgentWithUsers } from '../agents/agents.repo.js';
import type { AnsweringConfiguration } from './answering-model.js';
import type { FinishedResponse } from './ask.repo.js';

/** What of a prepared ask (ask.service.ts) its response row records. */
interface RecordedAsk {
  agent: Pick<AgentWithUsers, 'id' | 'project_id'>;
  historyId: number | null;
  query: string;
  configuration: AnsweringConfiguration | null;
}

export function questionColumns(actor: Actor, ask: RecordedAsk, at: string) {
  return {
    organization_id: actor.organizationId,
    agent_id: ask.agent.id,
    project_id: ask.agent.project_id,
    history_id: ask.historyId,
    query: ask.query,
    model: ask.configuration?.model ?? OFFLINE_MODEL,
    llm_configuration_id: ask.configuration?.id ?? null,
    input_price_per_million: ask.configuration ? ask.configuration.input_price_per_million : 0,
    output_price_per_million: ask.configuration ? ask.configuration.output_price_per_million : 0,
    created_on: at,
    created_by: actor.userId,
  };
}

export function unrecordedResponse(actor: Actor, ask: RecordedAsk, finished: Required<FinishedResponse>): AgentResponseView {
  return presentResponse({
    ...questionColumns(actor, ask, now()),
    ...finished,
    id: 0,
    thread_id: 0,
    pinned_on: null,
    pinned_by: null,
    created_by_email: actor.email,
    tags: [],
  });
}

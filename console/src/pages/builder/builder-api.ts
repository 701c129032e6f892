// The agent builder's calls: whether drafting is on (the chat-agent-creation flag), the draft itself
// (POST /api/v2/agents/builder, which creates nothing), and the draft turned into the agents pages'
// form, where every field it proposes is shown and may be changed before the agent is created.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { emptyDraft, newStarter, type AgentDraft } from '../agents/agentDraft';

export type BuilderResult = Schemas['AgentBuilderResult'];

export const builderFlagQuery = () =>
  queryOptions({
    queryKey: ['builder', 'flag', 'chat-agent-creation'] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags/chat-agent-creation'))).data.enabled,
  });

export async function draftAgent(description: string): Promise<BuilderResult> {
  return (await unwrap(api.POST('/api/v2/agents/builder', { body: { description: description.trim() } }))).data;
}

/** The builder's draft as the agent form holds it: the organization's default model, the team chosen for a new agent. */
export function formOf(result: BuilderResult, teamId: number | null): AgentDraft {
  const { draft } = result;
  return {
    ...emptyDraft(teamId),
    name: draft.name,
    description: draft.description,
    instructions: draft.instructions,
    corpusIds: draft.corpus_ids,
    toolIds: draft.tool_ids,
    guardrailIds: draft.guardrail_ids,
    starters: draft.conversation_starters.map((text) => newStarter(text)),
  };
}

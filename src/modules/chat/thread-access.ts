// Loading a thread or a response for a caller: 404 unless the caller may see it (its owner, an owner
// or admin of the organization, or a lead of the agent's team), with what later checks need.
import { NotFound } from '../../errors.js';
import type { Repositories } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { RecordedAnswer } from '../runtime/answer.js';
import { threadPolicy } from './thread.policy.js';
import type { ThreadRecord } from './threads.repo.js';

export interface ThreadAccess {
  thread: ThreadRecord;
  /** The caller leads the team of the thread's agent. */
  leadsAgentTeam: boolean;
}

export async function requireVisibleThread(repos: Repositories, actor: Actor, threadId: number): Promise<ThreadAccess> {
  const thread = await repos.threads.findRecord(actor.organizationId, threadId);
  if (!thread) throw new NotFound('thread', threadId);
  const leadsAgentTeam = thread.agent_team_id !== null && (await repos.teams.roleOf(actor.organizationId, thread.agent_team_id, actor.userId)) === 'lead';
  if (!threadPolicy.maySee(actor, thread, leadsAgentTeam)) throw new NotFound('thread', threadId);
  return { thread, leadsAgentTeam };
}

export async function requireVisibleResponse(repos: Repositories, actor: Actor, responseId: number): Promise<ThreadAccess & { response: RecordedAnswer }> {
  const response = await repos.responses.find(actor.organizationId, responseId);
  if (!response) throw new NotFound('response', responseId);
  try {
    return { ...(await requireVisibleThread(repos, actor, response.threadId)), response };
  } catch (error) {
    if (error instanceof NotFound) throw new NotFound('response', responseId);
    throw error;
  }
}

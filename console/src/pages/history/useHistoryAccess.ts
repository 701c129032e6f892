// Which agent the page is about (from the address) and whether the signed-in user may change it,
// with the reason to show when not.
import { useParams } from 'react-router';
import { VIEWER_REASON } from '../../session/permissions';
import { useUser } from '../../session/session';
import { useMayChangeAgent } from './history-api';

/** The agent's id from /agents/:agentId/…, or undefined when the address holds no valid one. */
export function useAgentIdParam(): number | undefined {
  const { agentId } = useParams();
  const id = Number(agentId);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const TEAM_REASON = 'Only owners, admins and the leads and editors of the agent’s team can change it.';

/**
 * Undefined when the user may restore and save checkpoints; otherwise why not (also while the
 * answer is awaited, so that nothing is offered before it is known).
 */
export function useChangeRefusal(agentId: number): { reason: string | undefined; known: boolean } {
  const user = useUser();
  const access = useMayChangeAgent(agentId);
  if (access.data === undefined) {
    // Without the server's answer the organization role alone decides; the server's 403 still does.
    if (access.isError) return { reason: user.role === 'viewer' ? VIEWER_REASON : undefined, known: true };
    return { reason: 'Checking what you may do…', known: false };
  }
  if (access.data.can_change) return { reason: undefined, known: true };
  return { reason: user.role === 'viewer' ? VIEWER_REASON : TEAM_REASON, known: true };
}

// Who may do what to a chat thread and the responses in it, one line each (docs/authorization.md).
// A thread is its owner's conversation: the owner, organization owners and admins, and the leads of
// the agent's team (who review what their agents answer) see it; anyone else is told it does not
// exist. The owner and admins change it; admins and the agent's team leads review its responses.
import { isAdmin, type Subject } from '../auth/roles.js';
import type { ThreadReader } from './readable-threads.js';

export { authorize } from '../auth/roles.js';

interface ThreadOwnership {
  user_id: number;
}

export const threadPolicy = {
  /** leadsAgentTeam: the subject leads the team of the thread's agent. */
  maySee: (subject: Subject, thread: ThreadOwnership, leadsAgentTeam: boolean) => thread.user_id === subject.userId || isAdmin(subject) || leadsAgentTeam,
  /** Rename, pin, tag or delete the thread, and pin or tag its responses. */
  mayChange: (subject: Subject, thread: ThreadOwnership) => thread.user_id === subject.userId || isAdmin(subject),
  mayReview: (subject: Subject, leadsAgentTeam: boolean) => isAdmin(subject) || leadsAgentTeam,
  mayDeleteComment: (subject: Subject, comment: { user_id: number }) => comment.user_id === subject.userId || isAdmin(subject),
  /** Lists across threads hold what the subject may see: every thread for admins, else their own and their led teams'. */
  readerOf: (subject: Subject): ThreadReader => ({ userId: subject.userId, everything: isAdmin(subject) }),
};

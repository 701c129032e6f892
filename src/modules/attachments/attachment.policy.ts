// Who may do what to a thread's attachments, one line each (docs/tools-attachments.md). Those who may
// see the thread (thread.policy.ts) see the list; only the thread's owner gives files, as only the
// owner asks in it: nobody puts words before the agent in another person's conversation. The owner
// and admins remove them, as they may delete the thread.
import type { Subject } from '../auth/roles.js';
import { threadPolicy } from '../chat/thread.policy.js';

interface ThreadOwnership {
  user_id: number;
}

export const attachmentPolicy = {
  mayGive: (subject: Subject, thread: ThreadOwnership) => thread.user_id === subject.userId,
  mayRemove: (subject: Subject, thread: ThreadOwnership) => threadPolicy.mayChange(subject, thread),
};

import type { ThreadRecord } from './threads.repo.js';
import type { ThreadView } from './threads.schemas.js';

export function presentThread(thread: ThreadRecord): ThreadView {
  return {
    id: thread.id,
    agent_id: thread.agent_id,
    user_id: thread.user_id,
    title: thread.title,
    pinned: thread.pinned === 1,
    tags: thread.tags,
    response_count: thread.response_count,
    last_activity_on: thread.last_activity_on,
    created_on: thread.created_on,
    created_by: thread.created_by_email,
    modified_on: thread.modified_on,
    modified_by: thread.modified_by_email,
  };
}

// What the chat page reads from the API, as TanStack Query keys and functions.
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { AgentResponse } from './responseTypes';

export type Agent = Schemas['Agent'];
export type ChatThread = Schemas['ChatThread'];
export type ThreadAttachment = Schemas['ThreadAttachment'];

export const chatKeys = {
  threads: (agentId: number) => ['threads', { agentId }] as const,
  thread: (threadId: number) => ['thread', threadId] as const,
  responses: (threadId: number) => ['thread', threadId, 'responses'] as const,
  attachments: (threadId: number) => ['thread', threadId, 'attachments'] as const,
  comments: (responseId: number) => ['responses', responseId, 'comments'] as const,
};

/** The person's threads with the agent, the most recently active first (the first 100). */
export async function fetchThreads(agentId: number): Promise<ChatThread[]> {
  return (await unwrap(api.GET('/api/v2/threads', { params: { query: { agent_id: agentId, page_size: 100 } } }))).data.items;
}

export async function fetchThread(threadId: number): Promise<ChatThread> {
  return (await unwrap(api.GET('/api/v2/threads/{thread_id}', { params: { path: { thread_id: threadId } } }))).data;
}

const PAGE_SIZE = 100;

/** The thread's questions and answers, oldest first: every page (a thread rarely has more than one). */
export async function fetchThreadResponses(threadId: number): Promise<AgentResponse[]> {
  const items: AgentResponse[] = [];
  for (let page = 1; ; page++) {
    const { data } = await unwrap(api.GET('/api/v2/threads/{thread_id}/responses', { params: { path: { thread_id: threadId }, query: { page, page_size: PAGE_SIZE } } }));
    items.push(...data.items);
    if (data.items.length < PAGE_SIZE || items.length >= data.total) return items;
  }
}

export async function fetchAttachments(threadId: number): Promise<ThreadAttachment[]> {
  return (await unwrap(api.GET('/api/v2/threads/{thread_id}/attachments', { params: { path: { thread_id: threadId } } }))).data.items;
}

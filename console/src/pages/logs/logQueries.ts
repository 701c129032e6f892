// The reads of the chat logs' pages: the log (one filtered read, paged here: the API streams the log
// whole, oldest first), a thread and its responses.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { LogQuery } from './logParams';

export type ChatLogRow = Schemas['ChatLogRow'];

export const chatLogQuery = (query: LogQuery) =>
  queryOptions({
    queryKey: ['chat-logs', query] as const,
    // Newest first, as a person reads a log.
    queryFn: async (): Promise<ChatLogRow[]> => {
      const answer = await unwrap(api.GET('/api/v2/chat-logs', { params: { query: { ...query, format: 'json' } } }));
      // format=json: the envelope (the route's CSV, a string, is asked only by the export's link).
      if (typeof answer === 'string') throw new Error('The server answered CSV where JSON was asked');
      return answer.data.items.reverse();
    },
    retry: false,
  });

export const threadQuery = (threadId: number) =>
  queryOptions({
    queryKey: ['chat-logs', 'thread', threadId] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/threads/{thread_id}', { params: { path: { thread_id: threadId } } }))).data,
    retry: false,
  });

export const THREAD_PAGE_SIZE = 50;

export const threadResponsesQuery = (threadId: number, page: number) =>
  queryOptions({
    queryKey: ['chat-logs', 'thread', threadId, 'responses', page] as const,
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/threads/{thread_id}/responses', { params: { path: { thread_id: threadId }, query: { page, page_size: THREAD_PAGE_SIZE } } }))).data,
    retry: false,
  });

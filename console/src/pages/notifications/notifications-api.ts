// The signed-in user's notifications: the unread count the header's bell shows, the list, and where
// each one leads in the console. Light on purpose: the bell imports it into the first load.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Notification = Schemas['Notification'];

export const NOTIFICATIONS_KEY = ['notifications'] as const;

/** How often the bell asks again while the page stays open (and on the window's focus). */
const POLL_MS = 60_000;

export const unreadCountQuery = () =>
  queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'unread-count'] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/notifications', { params: { query: { unread: true, page_size: 1 } } }))).data.total,
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });

export const notificationsQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'page', page] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/notifications', { params: { query: { page, page_size: pageSize } } }))).data,
    placeholderData: (previous) => previous,
  });

/** The console page of what a notification is about (its link is an API path), or null. */
export function consolePathOf(link: string | null): string | null {
  if (link === null) return null;
  const team = /^\/api\/v2\/teams\/(\d+)$/.exec(link);
  if (team) return `/organization/people/teams/${team[1]}`;
  const project = /^\/api\/v2\/projects\/(\d+)$/.exec(link);
  if (project) return `/organization/people/projects/${project[1]}`;
  const corpus = /^\/api\/v2\/corpora\/(\d+)/.exec(link);
  if (corpus) return `/corpora/${corpus[1]}`;
  const evaluation = /^\/api\/v2\/evaluations\/(\d+)/.exec(link);
  if (evaluation) return `/evaluations/${evaluation[1]}`;
  return null;
}

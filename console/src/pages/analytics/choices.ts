// The organization's agents and users as lists of choices (analytics' scopes, the chat logs' filters),
// read whole a page at a time and cached beside the other choice lists of queries.ts.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { wholeList } from '../../api/queries';

const CHOICES_STALE_MS = 60_000;

export const agentChoicesQuery = () =>
  queryOptions({
    queryKey: ['choices', 'agents'] as const,
    queryFn: () => wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/agents', { params: { query: { page, page_size: pageSize } } }))).data),
    staleTime: CHOICES_STALE_MS,
  });

export const userChoicesQuery = () =>
  queryOptions({
    queryKey: ['choices', 'users'] as const,
    queryFn: () => wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/users', { params: { query: { page, page_size: pageSize } } }))).data),
    staleTime: CHOICES_STALE_MS,
  });

/** A user as a person reads them: their name, else their e-mail. */
export function userLabel(user: { email: string; first_name?: string | null; last_name?: string | null }): string {
  const name = [user.first_name, user.last_name].filter((part) => part !== undefined && part !== null && part !== '').join(' ');
  return name === '' ? user.email : `${name} (${user.email})`;
}

// The sources page's reads and writes: document-library connectors and linked mailboxes, each listed
// with its last sync. While a sync is queued or runs the lists are read again every few seconds, so
// the counts change on the page as the server works.
import type { paths } from '@agent-platform/client';
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Connector = Schemas['Connector'];
export type Mailbox = Schemas['Mailbox'];
export type SyncStatus = Connector['last_sync']['status'];
export type MailProvider = Mailbox['provider'];

/** Sources are few: one page of the API's largest size holds them. */
const PAGE_SIZE = 100;
/** How often a list with a sync under way is read again. */
const FOLLOW_MS = 1500;

/** The page the mailbox's provider sends the browser back to (the server only accepts paths of its own origin). */
export const SOURCES_PATH = '/organization/sources';

export const sourceKeys = {
  all: ['sources'] as const,
  connectors: ['sources', 'connectors'] as const,
  mailboxes: ['sources', 'mailboxes'] as const,
  libraryFlag: ['sources', 'flag', 'document-library-index'] as const,
};

const isBusy = (status: SyncStatus) => status === 'queued' || status === 'running';

/** Read again soon while any item's sync is queued or runs; not at all otherwise. */
function followWhileBusy(items: { last_sync: { status: SyncStatus } }[] | undefined): number | false {
  return items?.some((item) => isBusy(item.last_sync.status)) ? FOLLOW_MS : false;
}

export const connectorsQuery = () =>
  queryOptions({
    queryKey: sourceKeys.connectors,
    queryFn: async () => (await unwrap(api.GET('/api/v2/connectors', { params: { query: { page: 1, page_size: PAGE_SIZE } } }))).data,
    refetchInterval: (query) => followWhileBusy(query.state.data?.items),
  });

export const mailboxesQuery = () =>
  queryOptions({
    queryKey: sourceKeys.mailboxes,
    queryFn: async () => (await unwrap(api.GET('/api/v2/email-indexing/mailboxes', { params: { query: { page: 1, page_size: PAGE_SIZE } } }))).data,
    refetchInterval: (query) => followWhileBusy(query.state.data?.items),
  });

/** Whether document-library connectors may be added and synced in this organization. */
export const libraryFlagQuery = () =>
  queryOptions({
    queryKey: sourceKeys.libraryFlag,
    queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags/document-library-index'))).data.enabled,
  });

export type NewConnector = paths['/api/v2/connectors']['post']['requestBody']['content']['application/json'];

export async function createConnector(body: NewConnector) {
  return (await unwrap(api.POST('/api/v2/connectors', { body }))).data;
}

export async function syncConnector(connectorId: number) {
  return (await unwrap(api.POST('/api/v2/connectors/{connector_id}/sync', { params: { path: { connector_id: connectorId } } }))).data;
}

export async function removeConnector(connectorId: number) {
  await unwrap(api.DELETE('/api/v2/connectors/{connector_id}', { params: { path: { connector_id: connectorId } } }));
}

export async function syncMailbox(mailboxId: number) {
  return (await unwrap(api.POST('/api/v2/email-indexing/mailboxes/{mailbox_id}/sync', { params: { path: { mailbox_id: mailboxId } } }))).data;
}

export async function removeMailbox(mailboxId: number) {
  await unwrap(api.DELETE('/api/v2/email-indexing/mailboxes/{mailbox_id}', { params: { path: { mailbox_id: mailboxId } } }));
}

/** Starts the provider's consent for a mailbox; answers the provider's page to send the browser to. */
export async function startMailboxAuthorization(body: { provider: MailProvider; corpus_id: number; mailbox?: string }) {
  return unwrap(api.POST('/api/email-indexing/authorize/', { body: { ...body, return_to: SOURCES_PATH } }));
}

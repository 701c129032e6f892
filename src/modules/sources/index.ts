// The sources of documents (document libraries, mailboxes): the engine that syncs them, an adapter
// per kind, and the schedule they share. What other modules import of them comes from here.
// The leaves come first (codes, schedule): the sources' schemas take GRAPH_ERROR_CODES and
// ScheduleMinutes from here while the adapters, which read those modules, are still being loaded.
export { GRAPH_ERROR_CODES, type GraphErrorCode } from './graph/graph-errors.js';
export { ScheduleMinutes, minutesFrom, queueScheduledSync, queueSyncNow } from './schedule.js';
export { connectorSubject, mailboxSubject, SyncJobsRepo, type SyncSubject } from './sync-jobs.repo.js';
export { SourceSync } from './source-sync.js';
export { GraphDriveAdapter, type ConnectorSyncOptions } from './adapters/graph-drive.js';
export { MailboxAdapter, type MailSyncOptions } from './adapters/mailbox.js';
export { DEFAULT_FOLDERS, MailProviders } from './mail/mail-providers.js';
export { MailError } from './mail/mail-errors.js';
export { MailOAuthClient, type TokenSet } from './mail/oauth-client.js';
export { normalizeAddress, StateSigner, type StatePayload } from './mail/signed-state.js';

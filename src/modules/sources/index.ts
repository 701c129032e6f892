// The sources of documents (document libraries, mailboxes): the engine that syncs them, an adapter
// per kind, and the schedule they share. What other modules import of them comes from here.
// The schedule comes first: the sources' schemas take ScheduleMinutes from here while the adapters,
// which read those modules, are still being loaded.
export { ScheduleMinutes, minutesFrom, queueScheduledSync, queueSyncNow } from './schedule.js';
export { connectorSubject, mailboxSubject, SyncJobsRepo, type SyncSubject } from './sync-jobs.repo.js';
export { SourceSync } from './source-sync.js';
export { GraphDriveAdapter, type ConnectorSyncOptions } from './adapters/graph-drive.js';
export { MailboxAdapter, type MailSyncOptions } from './adapters/mailbox.js';

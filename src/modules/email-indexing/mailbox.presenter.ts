// What a read shows of a mailbox: never its refresh token (sealed, and not even hinted), nor its cursor.
import { syncTiming } from '../connectors/connector.presenter.js';
import { foldersOf } from './mailbox-columns.js';
import type { MailboxView } from './email-indexing.schemas.js';
import type { MailboxWithCreator } from './mailboxes.repo.js';


export function presentMailbox(row: MailboxWithCreator): MailboxView {
  return {
    id: row.id,
    provider: row.provider,
    address: row.address,
    corpus_id: row.corpus_id,
    folders: foldersOf(row.folders),
    schedule_minutes: row.schedule_minutes,
    next_sync_on: row.next_sync_on,
    authorization_status: row.authorization_status,
    last_sync: {
      status: row.sync_status,
      started_on: row.sync_started_on,
      ...syncTiming(row),
      added: row.sync_added,
      removed: row.sync_removed,
      failed: row.sync_failed,
      error_code: (row.sync_error_code as MailboxView['last_sync']['error_code']) ?? null,
      error: row.sync_error,
    },
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
  };
}

// What a read shows of a connector: never the sealed secret (its hint only), and its last sync.
import type { ConnectorWithAudit } from './connectors.repo.js';
import type { ConnectorView } from './connectors.schemas.js';

function failuresOf(json: string): { name: string; reason: string }[] {
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? (parsed as { name: string; reason: string }[]) : [];
  } catch {
    return [];
  }
}

/** When the last sync ended and how long it took; both null while one is queued or runs. */
export function syncTiming(row: { sync_status: string; sync_started_on: string | null; sync_finished_on: string | null }) {
  const ended = row.sync_status === 'succeeded' || row.sync_status === 'failed';
  const duration = ended && row.sync_started_on && row.sync_finished_on ? Math.max(0, Date.parse(row.sync_finished_on) - Date.parse(row.sync_started_on)) : null;
  return { finished_on: ended ? row.sync_finished_on : null, duration_ms: duration };
}

export function presentConnector(row: ConnectorWithAudit): ConnectorView {
  return {
    id: row.id,
    name: row.name,
    corpus_id: row.corpus_id,
    tenant_id: row.tenant_id,
    client_id: row.client_id,
    client_secret_hint: row.client_secret_hint,
    site_id: row.site_id,
    drive_id: row.drive_id,
    folder_path: row.folder_path,
    schedule_minutes: row.schedule_minutes,
    next_sync_on: row.next_sync_on,
    last_sync: {
      status: row.sync_status,
      started_on: row.sync_started_on,
      ...syncTiming(row),
      added: row.sync_added,
      updated: row.sync_updated,
      removed: row.sync_removed,
      failed: row.sync_failed,
      failures: failuresOf(row.sync_failures),
      error_code: (row.sync_error_code as ConnectorView['last_sync']['error_code']) ?? null,
      error: row.sync_error,
    },
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

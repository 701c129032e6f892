// A source's last sync as a person reads it: its state, when it ran and how long it took, what it
// added, updated, removed and could not bring in (with why), and the error that stopped it.
import type { Connector, Mailbox, SyncStatus } from './sources-api';

const LOOK: Record<SyncStatus, { label: string; className: string }> = {
  never: { label: 'Never synced', className: 'badge' },
  queued: { label: 'Sync queued', className: 'badge badge-warning' },
  running: { label: 'Syncing…', className: 'badge badge-warning' },
  succeeded: { label: 'Synced', className: 'badge badge-success' },
  failed: { label: 'Sync failed', className: 'badge badge-danger' },
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

type LastSyncOf = Connector['last_sync'] | (Mailbox['last_sync'] & { updated?: undefined; failures?: undefined });

export function SyncBadge({ status }: { status: SyncStatus }) {
  const { label, className } = LOOK[status];
  return <span className={className}>{label}</span>;
}

export function LastSync({ sync, nextSyncOn }: { sync: LastSyncOf; nextSyncOn: string | null }) {
  const counts: [string, number | undefined][] = [
    ['Added', sync.added],
    ['Updated', sync.updated],
    ['Removed', sync.removed],
    ['Failed', sync.failed],
  ];
  return (
    <div className="last-sync">
      <p className="last-sync-when">
        {sync.started_on === null ? (
          'No sync has run yet.'
        ) : (
          <>
            Last sync started {when.format(new Date(sync.started_on))}
            {sync.duration_ms !== null && <>, took {duration(sync.duration_ms)}</>}.
          </>
        )}
        {nextSyncOn !== null && <> Next scheduled sync: {when.format(new Date(nextSyncOn))}.</>}
      </p>
      {sync.started_on !== null && (
        <dl className="sync-counts" aria-label="Documents in the last sync">
          {counts
            .filter((entry): entry is [string, number] => entry[1] !== undefined)
            .map(([label, count]) => (
              <div key={label} className={label === 'Failed' && count > 0 ? 'count-failed' : undefined}>
                <dt>{label}</dt>
                <dd>{count}</dd>
              </div>
            ))}
        </dl>
      )}
      {sync.error !== null && (
        <p className="note note-error">
          <strong>The sync failed{sync.error_code !== null ? ` (${sync.error_code})` : ''}: </strong>
          {sync.error}
        </p>
      )}
      {sync.failures !== undefined && sync.failures.length > 0 && (
        <details className="sync-failures">
          <summary>Files not brought in ({sync.failures.length})</summary>
          <ul>
            {sync.failures.map((failure) => (
              <li key={failure.name}>
                <strong>{failure.name}</strong>: {failure.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

// One linked source (a document library or a mailbox): what it is, which corpus it fills, its last
// sync, and "Sync now" and "Remove". The list is read again while a sync runs (sources-api.ts), so
// the counts change here by themselves.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DeleteButton } from '../../ui/DeleteButton';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { LastSync, SyncBadge } from './LastSync';
import { sourceKeys, type Connector, type Mailbox } from './sources-api';

interface SourceCardProps {
  /** What the source is called (the connector's name, the mailbox's address). */
  title: string;
  /** A word for it in questions and names: "document library", "mailbox". */
  noun: string;
  details: ReactNode;
  corpus: { id: number; name: string | undefined };
  sync: Connector['last_sync'] | Mailbox['last_sync'];
  nextSyncOn: string | null;
  /** Why "Sync now" is not offered (the feature off); null when it is. */
  syncBlocked: string | null;
  requestSync: () => Promise<unknown>;
  remove: () => Promise<void>;
  /** What removing it does, said in the question. */
  removeConsequence: string;
}

export function SourceCard({ title, noun, details, corpus, sync, nextSyncOn, syncBlocked, requestSync, remove, removeConsequence }: SourceCardProps) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: sourceKeys.all });
  const syncNow = useMutation({ mutationFn: requestSync, onSettled: refresh });
  const removal = useMutation({ mutationFn: remove, onSuccess: refresh });
  const busy = sync.status === 'queued' || sync.status === 'running';
  const headingId = `source-${useId()}`;
  return (
    <li className="card source-card" aria-labelledby={headingId}>
      <div className="source-head">
        <h3 id={headingId}>{title}</h3>
        <SyncBadge status={sync.status} />
      </div>
      <p className="source-details muted">
        {details} Into the corpus <Link to={`/corpora/${corpus.id}`}>{corpus.name ?? `#${corpus.id}`}</Link>.
      </p>
      <LastSync sync={sync} nextSyncOn={nextSyncOn} />
      <div className="actions source-actions">
        <Button
          onPress={() => syncNow.mutate()}
          isDisabled={busy || syncNow.isPending || syncBlocked !== null}
          aria-describedby={syncBlocked !== null ? `${headingId}-blocked` : undefined}
        >
          {busy ? 'Sync under way…' : 'Sync now'}
          <span className="visually-hidden"> {title}</span>
        </Button>
        <DeleteButton
          label="Remove"
          accessibleName={`Remove ${title}`}
          title={`Remove ${title}?`}
          confirmLabel={`Remove ${noun}`}
          compact
          isPending={removal.isPending}
          error={removal.error}
          errorTitle={`The ${noun} was not removed.`}
          onDelete={() => removal.mutate()}
        >
          {removeConsequence}
        </DeleteButton>
      </div>
      {syncBlocked !== null && (
        <p id={`${headingId}-blocked`} className="muted text-small">
          {syncBlocked}
        </p>
      )}
      <ErrorNote error={syncNow.error} title="The sync was not started." />
    </li>
  );
}

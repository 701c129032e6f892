// The body of a comparison once both records are read: who made each and when, the restore of
// either, the instructions' difference and the other settings' changes.
import { useId } from 'react';
import { ErrorNote } from '../../ui/Feedback';
import { formatWhen, type HistoryRecordDetail } from './history-api';
import { InstructionsDiff } from './InstructionsDiff';
import { RestoreButton } from './RestoreButton';
import { SettingsChanges } from './SettingsChanges';
import { changesBetween } from './snapshot-changes';
import { useChangeRefusal } from './useHistoryAccess';
import { restoredNotice, useRestoreCheckpoint } from './useRestoreCheckpoint';

interface ComparisonDetailsProps {
  agentId: number;
  from: HistoryRecordDetail;
  to: HistoryRecordDetail;
  /** The newest record: the agent's configuration now, so not offered for restore. */
  newestId: number | undefined;
  onRestored: (notice: string) => void;
}

function title(record: HistoryRecordDetail): string {
  return `#${record.history_id} ${record.checkpoint_name}`;
}

export function ComparisonDetails({ agentId, from, to, newestId, onRestored }: ComparisonDetailsProps) {
  const refusal = useChangeRefusal(agentId);
  const reasonId = useId();
  const restore = useRestoreCheckpoint(agentId);
  const changes = changesBetween(from.snapshot, to.snapshot);
  const otherChanges = changes.filter((change) => change.field !== 'instructions');

  const restoreTo = async (record: HistoryRecordDetail, note: string) => {
    try {
      onRestored(restoredNotice(await restore.mutateAsync({ historyId: record.history_id, note })));
    } catch {
      // restore.error is shown below.
    }
  };

  return (
    <>
      <div className="compare-records">
        {[
          { side: 'From', record: from },
          { side: 'To', record: to },
        ].map(({ side, record }) => (
          <section key={side} className="card compare-record" aria-label={`${side}: ${title(record)}`}>
            <p className="compare-record-side muted">{side}</p>
            <p className="compare-record-title">
              <strong>{title(record)}</strong> <span className="muted">version {record.version}</span>
            </p>
            {record.description !== null && record.description !== '' && <p className="history-description">{record.description}</p>}
            <p className="muted">
              <time dateTime={record.created_on}>{formatWhen(record.created_on)}</time> by <span className="history-who">{record.created_by}</span>
            </p>
            {record.history_id === newestId ? (
              <span className="badge badge-warning">Current</span>
            ) : (
              <RestoreButton
                record={record}
                label={`Restore #${record.history_id}`}
                disabledReasonId={refusal.reason === undefined ? undefined : reasonId}
                isPending={restore.isPending}
                onRestore={(note) => restoreTo(record, note)}
              />
            )}
          </section>
        ))}
      </div>
      {refusal.reason !== undefined && (
        <p id={reasonId} className="note note-info">
          {refusal.known ? `You cannot restore. ${refusal.reason}` : refusal.reason}
        </p>
      )}
      <ErrorNote error={restore.error} title="The restore failed." />

      <section aria-labelledby="compare-instructions">
        <h2 id="compare-instructions">Instructions</h2>
        <InstructionsDiff before={from.snapshot.instructions} after={to.snapshot.instructions} beforeTitle={title(from)} afterTitle={title(to)} />
      </section>
      <section aria-labelledby="compare-settings">
        <h2 id="compare-settings">Other settings</h2>
        <SettingsChanges changes={otherChanges} />
      </section>
    </>
  );
}

// One page of an agent's history, newest first: each record's number, version, name (and
// description), what changed since the record before it, when and by whom; a box to pick it for a
// comparison and its restore button. On a phone each row becomes a small card (history.css).
import { Checkbox } from 'react-aria-components';
import { messageOf } from '../../api/errors';
import { formatWhen, type HistoryRecord } from './history-api';
import { RestoreButton } from './RestoreButton';
import type { RowChanges } from './useRecordChanges';

function ChangedCell({ changes, kind }: { changes: RowChanges | undefined; kind: HistoryRecord['kind'] }) {
  if (changes === undefined || changes.state === 'loading') return <span className="muted">…</span>;
  if (changes.state === 'first') return <span>First version</span>;
  if (changes.state === 'failed') return <span className="history-cell-error">Could not be read: {messageOf(changes.error)}</span>;
  if (changes.labels.length > 0) return <span>{changes.labels.join(', ')}</span>;
  return <span className="muted">{kind === 'checkpoint' ? 'Nothing; saved as a checkpoint' : 'No setting changed'}</span>;
}

interface HistoryTableProps {
  records: HistoryRecord[];
  changes: Map<number, RowChanges>;
  /** The newest record of all (the agent's configuration now), if on this page. */
  currentId: number | undefined;
  selectedIds: number[];
  onToggleSelected: (record: HistoryRecord, selected: boolean) => void;
  restoreDisabledReasonId: string | undefined;
  restoringId: number | undefined;
  onRestore: (record: HistoryRecord, note: string) => void | Promise<void>;
}

export function HistoryTable(props: HistoryTableProps) {
  const { records, changes, currentId, selectedIds, onToggleSelected, restoreDisabledReasonId, restoringId, onRestore } = props;
  return (
    <div className="table-wrap">
      <table className="plain history-table">
        <caption className="visually-hidden">History records, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Compare</th>
            <th scope="col">Record</th>
            <th scope="col">What</th>
            <th scope="col">Changed</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const selected = selectedIds.includes(record.history_id);
            return (
              <tr key={record.history_id} className={selected ? 'history-row-selected' : undefined}>
                <td className="history-compare-cell">
                  <Checkbox isSelected={selected} onChange={(next) => onToggleSelected(record, next)} aria-label={`Compare #${record.history_id} ${record.checkpoint_name}`}>
                    <div className="box" aria-hidden="true">
                      {selected ? '✓' : ''}
                    </div>
                  </Checkbox>
                </td>
                <td data-label="Record">
                  <span className="mono">#{record.history_id}</span> <span className="muted">v{record.version}</span>
                </td>
                <td data-label="What">
                  <span className="history-name">{record.checkpoint_name}</span>{' '}
                  {/* The other kinds' names ("Updated", "Restored to #12: …") already say what they are. */}
                  {record.kind === 'checkpoint' && <span className="badge badge-success">Checkpoint</span>}
                  {record.history_id === currentId && <span className="badge badge-warning">Current</span>}
                  {record.description !== null && record.description !== '' && <p className="history-description">{record.description}</p>}
                </td>
                <td data-label="Changed">
                  <ChangedCell changes={changes.get(record.history_id)} kind={record.kind} />
                </td>
                <td data-label="When">
                  <time dateTime={record.created_on}>{formatWhen(record.created_on)}</time>
                </td>
                <td data-label="Who" className="history-who">
                  {record.created_by}
                </td>
                <td className="history-actions-cell">
                  {record.history_id !== currentId && (
                    <RestoreButton
                      record={record}
                      disabledReasonId={restoreDisabledReasonId}
                      isPending={restoringId !== undefined}
                      onRestore={(note) => onRestore(record, note)}
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

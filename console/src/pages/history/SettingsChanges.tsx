// Every setting other than the instructions that differs between two records, one line each:
// "Temperature: 0.7 → 0.2". The old value is struck through and the new one underlined, with the
// words "before"/"after" for screen readers, so nothing rests on colour.
import { describeChange } from './format-change';
import { useReferenceNames } from './reference-names';
import type { FieldChange, ReferenceKind } from './snapshot-changes';

export function SettingsChanges({ changes }: { changes: FieldChange[] }) {
  const needed = new Set(changes.flatMap((change): ReferenceKind[] => (change.reference === undefined ? [] : [change.reference])));
  const lookup = useReferenceNames(needed);
  if (changes.length === 0) return <p className="muted">No other setting changed.</p>;
  return (
    <ul className="settings-changes" aria-label="Changed settings">
      {changes.map((change) => {
        const { before, after } = describeChange(change, lookup);
        return (
          <li key={change.field}>
            <strong>{change.label}</strong>:{' '}
            <del>
              <span className="visually-hidden">before: </span>
              {before}
            </del>{' '}
            <span aria-hidden="true">→</span>{' '}
            <ins>
              <span className="visually-hidden">after: </span>
              {after}
            </ins>
          </li>
        );
      })}
    </ul>
  );
}

// The two records picked in the table, and the way to their comparison.
import { Link } from 'react-router';
import { Button } from '../../ui/Fields';
import type { HistoryRecord } from './history-api';

export function compareHref(agentId: number, a: number, b: number): string {
  // The older record on the left ("from"), the newer on the right ("to").
  const [from, to] = a < b ? [a, b] : [b, a];
  return `/agents/${agentId}/history/compare?from=${from}&to=${to}`;
}

interface CompareBarProps {
  agentId: number;
  selected: HistoryRecord[];
  onClear: () => void;
}

export function CompareBar({ agentId, selected, onClear }: CompareBarProps) {
  const [first, second] = selected;
  const names = selected.map((record) => `#${record.history_id}`).join(' and ');
  return (
    <div className="compare-bar">
      <p aria-live="polite">
        {selected.length === 0 && 'Tick two records to compare them.'}
        {selected.length === 1 && `${names} picked; tick one more to compare.`}
        {selected.length === 2 && `${names} picked.`}
      </p>
      <div className="actions">
        {first !== undefined && second !== undefined ? (
          <Link className="button button-primary" to={compareHref(agentId, first.history_id, second.history_id)}>
            Compare {names}
          </Link>
        ) : (
          <Button isDisabled>Compare</Button>
        )}
        {selected.length > 0 && (
          <Button variant="quiet" onPress={onClear}>
            Clear
          </Button>
        )}
      </div>
    </div>
  );
}

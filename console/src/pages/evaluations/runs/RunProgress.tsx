// Where a run is: a progress bar of the queries answered, read again every second while it runs
// (runQuery), and what its state means said in words, announced when it changes: done, failed (with
// the reason), cancelled, stopped by its budget.
import { Label, ProgressBar } from 'react-aria-components';
import type { Evaluation } from '../evaluations-api';
import { STATUS_BADGES, STATUS_LABELS } from '../format';

function stateSentence(run: Evaluation): string {
  const { answered, total, failed, blocked } = run.progress;
  const troubles = [failed > 0 ? `${failed} failed` : '', blocked > 0 ? `${blocked} blocked by a guardrail` : ''].filter(Boolean).join(', ');
  const after = troubles === '' ? '' : ` (${troubles})`;
  switch (run.status) {
    case 'queued':
      return 'Waiting to start.';
    case 'running':
      return `Running: ${answered} of ${total} queries answered. This page follows it.`;
    case 'completed':
      return `Done: all ${total} queries answered${after}.`;
    case 'cancelled':
      return `Cancelled after ${answered} of ${total} queries${after}.`;
    case 'budget_exhausted':
      return `Stopped: its cost budget was spent after ${answered} of ${total} queries.`;
    case 'failed':
      return `Failed: ${run.error ?? 'the run could not go on.'}`;
  }
}

export function RunProgress({ run }: { run: Evaluation }) {
  return (
    <div className="run-progress">
      <ProgressBar value={run.progress.percent} valueLabel={`${run.progress.answered} of ${run.progress.total} queries answered`}>
        {({ percentage, valueText }) => (
          <>
            <div className="run-progress-text">
              <Label>Progress</Label> <span className={STATUS_BADGES[run.status]}>{STATUS_LABELS[run.status]}</span> <span className="muted">{valueText}</span>
            </div>
            <div className="progress-track">
              <div className="progress-fill" style={{ width: `${percentage ?? 0}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
      <p role="status" className={run.status === 'failed' ? 'note note-error' : run.status === 'completed' ? 'note note-success' : 'note note-info'}>
        {stateSentence(run)}
      </p>
    </div>
  );
}

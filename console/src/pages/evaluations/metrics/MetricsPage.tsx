// The metrics a run can score: the built-in ones (read-only) and the organization's own, defined,
// changed and deleted here; a judge metric shows its rubric and the prompt its judge is sent.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { useUser } from '../../../session/session';
import { ErrorNote, Loading } from '../../../ui/Feedback';
import { CreateAction } from '../CreateAction';
import { DeleteRowButton } from '../DeleteRowButton';
import { PageHeader } from '../../../ui/PageHeader';
import { evaluationKeys, metricsQuery, type Metric } from '../evaluations-api';
import { formatScore, mayChange } from '../format';
import { KIND_INFO } from './metric-kinds';
import { MetricDialog } from './MetricDialog';
import { DataTable } from '../../../ui/DataTable';

const NEEDS: Record<string, string> = { expected_answer: 'An expected answer', expected_sources: 'Expected sources', judge: 'A judge model', embedder: 'An embedding model' };

export default function MetricsPage() {
  const metrics = useQuery(metricsQuery());
  const own = metrics.data?.filter((metric) => !metric.builtin) ?? [];
  const builtin = metrics.data?.filter((metric) => metric.builtin) ?? [];
  return (
    <>
      <PageHeader title="Metrics" description="What scores each answer of a run: measured, or graded by a judge model.">
        <CreateAction label="New metric">
          <MetricDialog />
        </CreateAction>
      </PageHeader>
      <ErrorNote error={metrics.error} title="The metrics could not be loaded." />
      {metrics.isPending && <Loading label="Loading the metrics…" />}
      {metrics.data !== undefined && (
        <>
          <section className="evaluations-section" aria-labelledby="own-metrics">
            <h2 id="own-metrics">Your organization’s metrics</h2>
            {own.length === 0 ? <p className="empty">None yet: define one for what matters to your agents (a rubric, a pattern, a text).</p> : <MetricTable metrics={own} />}
          </section>
          <section className="evaluations-section" aria-labelledby="builtin-metrics">
            <h2 id="builtin-metrics">Built-in metrics</h2>
            <MetricTable metrics={builtin} />
          </section>
        </>
      )}
    </>
  );
}

function MetricTable({ metrics }: { metrics: Metric[] }) {
  const user = useUser();
  return (
    <DataTable columns={['Name', 'Kind', 'Passes', 'Needs']} actions className="cards">
      {metrics.map((metric) => (
        <tr key={metric.id}>
          <th scope="row" className="cell-text">
            {metric.name}
            {metric.description !== '' && <span className="muted text-small text-block">{metric.description}</span>}
            {!metric.available && <span className="badge badge-warning">Unavailable on this server</span>}
            <JudgeDetails metric={metric} />
          </th>
          <td data-label="Kind">{KIND_INFO[metric.kind].label}</td>
          <td data-label="Passes">{metric.threshold === null ? <span className="muted">no threshold</span> : `${metric.pass_when === 'at_least' ? 'at least' : 'at most'} ${formatScore(metric.threshold)}`}</td>
          <td data-label="Needs">{metric.needs === null ? 'The answer only' : (NEEDS[metric.needs] ?? metric.needs)}</td>
          <td data-label="Actions">
            {!metric.builtin && mayChange(user, metric.created_by) && (
              <div className="row-actions">
                <MetricDialog metric={metric} />
                <DeleteMetric metric={metric} />
              </div>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function JudgeDetails({ metric }: { metric: Metric }) {
  if (metric.judge_prompt === null && metric.rubric === null) return null;
  return (
    <details>
      <summary className="text-small">Rubric and judge prompt</summary>
      {metric.rubric !== null && (
        <p className="text-small">
          <strong>Rubric:</strong> {metric.rubric}
        </p>
      )}
      {metric.judge_prompt !== null && <pre className="judge-prompt">{metric.judge_prompt}</pre>}
    </details>
  );
}

function DeleteMetric({ metric }: { metric: Metric }) {
  return (
    <DeleteRowButton
      accessibleName={`Delete ${metric.name}`}
      title={`Delete ${metric.name}?`}
      confirmLabel="Delete metric"
      errorTitle="The metric could not be deleted."
      remove={() => unwrap(api.DELETE('/api/v2/metrics/{metric_id}', { params: { path: { metric_id: metric.id } } }))}
      stale={evaluationKeys.metrics}
    >
      <p>Runs already made keep its definition and their scores. This cannot be undone.</p>
    </DeleteRowButton>
  );
}

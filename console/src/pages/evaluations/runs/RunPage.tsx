// One run: what it evaluates (agent, checkpoint, dataset, metrics), its progress followed live while
// it runs, its figures per metric, and each query's answer with its verdicts (opened in a dialog).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { agentQuery } from '../../../api/queries';
import { useUser } from '../../../session/session';
import { DeleteButton } from '../../../ui/DeleteButton';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { checkpointQuery, datasetQuery, evaluationKeys, hasEnded, PAGE_SIZE, resultsQuery, runQuery, type Evaluation } from '../evaluations-api';
import { formatDate, mayChange } from '../format';
import { QueryResultDialog } from './QueryResultDialog';
import { RunProgress } from './RunProgress';
import { RunSummary } from './RunSummary';
import { Verdict } from './Verdict';

export default function RunPage() {
  const runId = Number(useParams().runId);
  const run = useQuery(runQuery(runId));
  const user = useUser();
  if (run.isPending) return <Loading label="Loading the run…" />;
  if (run.data === undefined) return <ErrorNote error={run.error} title="The run could not be loaded." />;
  const editable = mayChange(user, run.data.created_by);
  return (
    <>
      <p className="muted">
        <Link to="/evaluations">Runs</Link>
      </p>
      <PageHeader title={run.data.name}>
        {hasEnded(run.data.status) && <Link to={`/evaluations/compare?ids=${run.data.id}`}>Compare with another run</Link>}
        {editable && !hasEnded(run.data.status) && <CancelRun run={run.data} />}
        {editable && <DeleteRun run={run.data} />}
      </PageHeader>
      <RunProgress run={run.data} />
      <RunFacts run={run.data} />
      {run.data.summary !== undefined && run.data.summary.length > 0 && <RunSummary summary={run.data.summary} />}
      <Results run={run.data} />
    </>
  );
}

function RunFacts({ run }: { run: Evaluation }) {
  const agent = useQuery(agentQuery(run.agent_id));
  const dataset = useQuery({ ...datasetQuery(run.dataset_id ?? 0), enabled: run.dataset_id !== null });
  const checkpoint = useQuery(checkpointQuery(run.agent_id, run.history_id));
  const checkpointName = checkpoint.data === undefined ? `record ${run.history_id}` : `${checkpoint.data.checkpoint_name || `version ${checkpoint.data.version}`} (record ${run.history_id})`;
  return (
    <dl className="run-facts">
      <dt>Agent</dt>
      <dd>
        <Link to={`/agents/${run.agent_id}`}>{agent.data?.name ?? `Agent ${run.agent_id}`}</Link> as at <Link to={`/agents/${run.agent_id}/history`}>{checkpointName}</Link>
      </dd>
      <dt>Dataset</dt>
      <dd>{run.dataset_id === null ? <span className="muted">Deleted (the run keeps its queries)</span> : <Link to={`/evaluations/datasets/${run.dataset_id}`}>{dataset.data?.name ?? `Dataset ${run.dataset_id}`}</Link>}</dd>
      <dt>Metrics</dt>
      <dd>{run.metrics.map((metric) => metric.name).join(', ')}</dd>
      {run.tags.length > 0 && (
        <>
          <dt>Tags</dt>
          <dd>{run.tags.join(', ')}</dd>
        </>
      )}
      <dt>Cost</dt>
      <dd>${run.cost_usd.toFixed(4)}</dd>
      <dt>Started</dt>
      <dd>
        {formatDate(run.started_on)} by {run.created_by}
        {run.finished_on !== null && `; ended ${formatDate(run.finished_on)}`}
      </dd>
    </dl>
  );
}

function Results({ run }: { run: Evaluation }) {
  const [page, setPage] = useState(1);
  const results = useQuery(resultsQuery(run.id, page, !hasEnded(run.status)));
  return (
    <section className="evaluations-section" aria-labelledby="results-heading">
      <h2 id="results-heading">Answers</h2>
      <ErrorNote error={results.error} title="The answers could not be loaded." />
      {results.isPending && <Loading label="Loading the answers…" />}
      {results.data !== undefined &&
        (results.data.items.length === 0 ? (
          <Empty>No query yet.</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="plain cards">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Question</th>
                    <th scope="col">Answer</th>
                    <th scope="col">Verdicts</th>
                    <th scope="col">
                      <span className="visually-hidden">Open</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {results.data.items.map((result) => (
                    <tr key={result.id}>
                      <td data-label="#">{result.position}</td>
                      <th scope="row" className="cell-text">
                        {result.question}
                      </th>
                      <td data-label="Answer" className="cell-text">
                        {result.status === 'pending' ? <span className="muted">Waiting…</span> : result.status === 'completed' ? (result.answer ?? '') : <span className="badge badge-danger">{result.status}</span>}
                      </td>
                      <td data-label="Verdicts">
                        <ul className="verdicts">
                          {result.scores.map((score) => (
                            <li key={score.metric_id}>
                              {score.name}: <Verdict score={score} />
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td data-label="Actions">
                        <QueryResultDialog result={result} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={results.data.total} nouns={['query', 'queries']} onPage={setPage} />
          </>
        ))}
    </section>
  );
}

function CancelRun({ run }: { run: Evaluation }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v2/evaluations/{evaluation_id}/cancel', { params: { path: { evaluation_id: run.id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: evaluationKeys.run(run.id) }),
  });
  return (
    <div className="delete-action">
      <Button onPress={() => cancel.mutate()} isDisabled={cancel.isPending}>
        {cancel.isPending ? 'Cancelling…' : 'Cancel run'}
      </Button>
      <ErrorNote error={cancel.error} title="The run could not be cancelled." />
    </div>
  );
}

function DeleteRun({ run }: { run: Evaluation }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/evaluations/{evaluation_id}', { params: { path: { evaluation_id: run.id } } })),
    onSuccess: async () => {
      await navigate('/evaluations');
      queryClient.removeQueries({ queryKey: evaluationKeys.run(run.id) });
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.runs });
    },
  });
  return (
    <DeleteButton
      label="Delete run"
      title={`Delete ${run.name}?`}
      confirmLabel="Delete run"
      isPending={remove.isPending}
      error={remove.error}
      errorTitle="The run could not be deleted."
      onDelete={() => remove.mutate()}
    >
      <p>Its answers and scores are deleted with it{hasEnded(run.status) ? '' : ', and it stops'}. This cannot be undone.</p>
    </DeleteButton>
  );
}

// The organization's runs, newest first, each with its state and progress (read again while one is
// going); starting one; choosing two to compare.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { CreateAction } from '../CreateAction';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { PAGE_SIZE, runsQuery } from '../evaluations-api';
import { formatDate, mayCreate, STATUS_BADGES, STATUS_LABELS, VIEWER_CANNOT_CREATE } from '../format';
import { NewRunDialog } from './NewRunDialog';

export default function RunsPage() {
  const [page, setPage] = useState(1);
  const runs = useQuery(runsQuery(page));
  return (
    <>
      <PageHeader title="Evaluations" description="Runs of an agent’s checkpoint over a dataset, each answer scored by your metrics.">
        <CreateAction label="New run">
          <NewRunDialog />
        </CreateAction>
      </PageHeader>
      <ErrorNote error={runs.error} title="The runs could not be loaded." />
      {runs.isPending && <Loading label="Loading the runs…" />}
      {runs.data !== undefined &&
        (runs.data.items.length === 0 ? (
          <Empty>No runs yet. A run needs a dataset with queries and the metrics to score its answers.</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="plain cards">
                <thead>
                  <tr>
                    <th scope="col">Run</th>
                    <th scope="col">State</th>
                    <th scope="col">Answered</th>
                    <th scope="col">Tags</th>
                    <th scope="col">Started</th>
                  </tr>
                </thead>
                <tbody>
                  {runs.data.items.map((run) => (
                    <tr key={run.id}>
                      <th scope="row" className="cell-text">
                        <Link to={`/evaluations/runs/${run.id}`}>{run.name}</Link>
                      </th>
                      <td data-label="State">
                        <span className={STATUS_BADGES[run.status]}>{STATUS_LABELS[run.status]}</span>
                      </td>
                      <td data-label="Answered">
                        {run.progress.answered} of {run.progress.total}
                      </td>
                      <td data-label="Tags">{run.tags.join(', ')}</td>
                      <td data-label="Started">{formatDate(run.started_on ?? run.created_on)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={runs.data.total} nouns={['run', 'runs']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

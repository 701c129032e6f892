// The organization's datasets of evaluation queries, newest first, a page at a time; creating one.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../../session/session';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { CreateAction } from '../CreateAction';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { datasetsQuery, PAGE_SIZE } from '../evaluations-api';
import { formatDate, mayCreate } from '../format';
import { DatasetDialog } from './DatasetDialog';

export default function DatasetsPage() {
  const user = useUser();
  const [page, setPage] = useState(1);
  const datasets = useQuery(datasetsQuery(page));
  return (
    <>
      <PageHeader title="Datasets" description="Questions with what a good answer says and draws on, asked of an agent in a run.">
        <CreateAction label="New dataset">
          <DatasetDialog />
        </CreateAction>
      </PageHeader>
      <ErrorNote error={datasets.error} title="The datasets could not be loaded." />
      {datasets.isPending && <Loading label="Loading the datasets…" />}
      {datasets.data !== undefined &&
        (datasets.data.items.length === 0 ? (
          <Empty>No datasets yet.{mayCreate(user) ? ' Create one, then add its questions from a CSV or JSON file.' : ''}</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="plain cards">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Queries</th>
                    <th scope="col">Changed</th>
                  </tr>
                </thead>
                <tbody>
                  {datasets.data.items.map((dataset) => (
                    <tr key={dataset.id}>
                      <th scope="row">
                        <Link to={`/evaluations/datasets/${dataset.id}`}>{dataset.name}</Link>
                        {dataset.description !== '' && <span className="muted text-small text-block">{dataset.description}</span>}
                      </th>
                      <td data-label="Queries">{dataset.query_count}</td>
                      <td data-label="Changed">{formatDate(dataset.modified_on)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={datasets.data.total} nouns={['dataset', 'datasets']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

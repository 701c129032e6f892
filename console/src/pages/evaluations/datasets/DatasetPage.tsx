// One dataset: its name and description (renamed, deleted), its queries a page at a time (added by
// hand or from a CSV or JSON file, changed, deleted).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { useUser } from '../../../session/session';
import { DeleteButton } from '../../../ui/DeleteButton';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { datasetQueriesQuery, datasetQuery, evaluationKeys, PAGE_SIZE, type Dataset, type DatasetQuery } from '../evaluations-api';
import { mayChange, NOT_YOURS } from '../format';
import { DeleteRowButton } from '../DeleteRowButton';
import { DatasetDialog } from './DatasetDialog';
import { QueryDialog } from './QueryDialog';
import { QueryUpload } from './QueryUpload';

export default function DatasetPage() {
  const datasetId = Number(useParams().datasetId);
  const dataset = useQuery(datasetQuery(datasetId));
  const user = useUser();
  if (dataset.isPending) return <Loading label="Loading the dataset…" />;
  if (dataset.data === undefined) return <ErrorNote error={dataset.error} title="The dataset could not be loaded." />;
  const editable = mayChange(user, dataset.data.created_by);
  return (
    <>
      <p className="muted">
        <Link to="/evaluations/datasets">Datasets</Link>
      </p>
      <PageHeader title={dataset.data.name} description={dataset.data.description || undefined}>
        {editable ? (
          <>
            <DatasetDialog dataset={dataset.data} />
            <DeleteDataset dataset={dataset.data} />
          </>
        ) : (
          <p className="muted text-small">{NOT_YOURS}</p>
        )}
      </PageHeader>
      {editable && <QueryUpload datasetId={datasetId} />}
      <Queries datasetId={datasetId} total={dataset.data.query_count} editable={editable} />
    </>
  );
}

function DeleteDataset({ dataset }: { dataset: Dataset }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/datasets/{dataset_id}', { params: { path: { dataset_id: dataset.id } } })),
    onSuccess: async () => {
      await navigate('/evaluations/datasets');
      queryClient.removeQueries({ queryKey: evaluationKeys.dataset(dataset.id) });
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets });
    },
  });
  return (
    <DeleteButton
      label="Delete dataset"
      title={`Delete ${dataset.name}?`}
      confirmLabel="Delete dataset"
      isPending={remove.isPending}
      error={remove.error}
      errorTitle="The dataset could not be deleted."
      onDelete={() => remove.mutate()}
    >
      <p>Its {dataset.query_count} queries are deleted with it. Runs made with it keep their copy of each query. This cannot be undone.</p>
    </DeleteButton>
  );
}

function Queries({ datasetId, total, editable }: { datasetId: number; total: number; editable: boolean }) {
  const [page, setPage] = useState(1);
  const queries = useQuery(datasetQueriesQuery(datasetId, page));
  return (
    <section className="evaluations-section" aria-labelledby="queries-heading">
      <div className="page-header">
        <h2 id="queries-heading">Queries ({total})</h2>
        {editable && <QueryDialog datasetId={datasetId} />}
      </div>
      <ErrorNote error={queries.error} title="The queries could not be loaded." />
      {queries.isPending && <Loading label="Loading the queries…" />}
      {queries.data !== undefined &&
        (queries.data.items.length === 0 ? (
          <Empty>No queries yet.</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="plain cards">
                <thead>
                  <tr>
                    <th scope="col">Question</th>
                    <th scope="col">Expected answer</th>
                    <th scope="col">Expected sources</th>
                    <th scope="col">Tags</th>
                    {editable && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {queries.data.items.map((query) => (
                    <tr key={query.id}>
                      <th scope="row" className="cell-text">
                        {query.question}
                      </th>
                      <td data-label="Expected answer" className="cell-text">
                        {query.expected_answer ?? <span className="muted">none</span>}
                      </td>
                      <td data-label="Expected sources" className="cell-text">
                        {query.expected_sources.join(', ')}
                      </td>
                      <td data-label="Tags">{query.tags.join(', ')}</td>
                      {editable && (
                        <td data-label="Actions">
                          <div className="row-actions">
                            <QueryDialog datasetId={datasetId} query={query} />
                            <DeleteQuery datasetId={datasetId} query={query} />
                          </div>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={queries.data.total} nouns={['query', 'queries']} onPage={setPage} />
          </>
        ))}
    </section>
  );
}

function DeleteQuery({ datasetId, query }: { datasetId: number; query: DatasetQuery }) {
  return (
    <DeleteRowButton
      accessibleName={`Delete query: ${query.question}`}
      title="Delete this query?"
      confirmLabel="Delete query"
      errorTitle="The query could not be deleted."
      remove={() => unwrap(api.DELETE('/api/v2/datasets/{dataset_id}/queries/{query_id}', { params: { path: { dataset_id: datasetId, query_id: query.id } } }))}
      stale={evaluationKeys.dataset(datasetId)}
    >
      <p>“{query.question}” leaves the dataset. Runs that asked it keep their copy.</p>
    </DeleteRowButton>
  );
}

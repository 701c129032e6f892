// The evaluations pages' reads and writes (docs/evaluations.md): datasets and their queries, metrics,
// evaluations (runs) with their results, and comparisons. Every key starts with 'evaluations', so a
// change invalidates this area's cache and nothing of another page's.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, csrfHeaders, reportSessionEnded, type Schemas } from '../../api/client';
import { errorOf, unwrap } from '../../api/errors';
import { wholeList } from '../../api/queries';

export type Dataset = Schemas['Dataset'];
export type DatasetQuery = Schemas['DatasetQuery'];
export type Metric = Schemas['Metric'];
export type MetricKind = Metric['kind'];
export type Evaluation = Schemas['Evaluation'];
export type EvaluationStatus = Evaluation['status'];
export type MetricSummary = Schemas['MetricSummary'];
export type QueryResult = Schemas['EvaluationQueryResult'];
export type Comparison = Schemas['EvaluationComparison'];
export type ComparedQuery = Comparison['queries']['items'][number];
/** A query as it is added: only the question is required. */
export type NewQuery = Pick<DatasetQuery, 'question'> & Partial<Pick<DatasetQuery, 'expected_answer' | 'expected_sources' | 'tags'>>;

export const PAGE_SIZE = 20;
/** How often a run in progress is read again. */
export const RUN_POLL_MS = 1000;

export const evaluationKeys = {
  all: ['evaluations'] as const,
  datasets: ['evaluations', 'datasets'] as const,
  datasetPage: (page: number) => ['evaluations', 'datasets', 'page', page] as const,
  datasetChoices: ['evaluations', 'datasets', 'choices'] as const,
  dataset: (id: number) => ['evaluations', 'dataset', id] as const,
  queries: (id: number, page: number) => ['evaluations', 'dataset', id, 'queries', page] as const,
  metrics: ['evaluations', 'metrics'] as const,
  runs: ['evaluations', 'runs'] as const,
  runPage: (page: number) => ['evaluations', 'runs', 'page', page] as const,
  runChoices: ['evaluations', 'runs', 'choices'] as const,
  run: (id: number) => ['evaluations', 'run', id] as const,
  /** `ended` in the key: the answers are read once more when the run ends, after the last poll. */
  results: (id: number, page: number, ended: boolean) => ['evaluations', 'run', id, 'results', page, ended] as const,
  comparison: (ids: readonly number[]) => ['evaluations', 'comparison', ...ids] as const,
  agents: ['evaluations', 'agents'] as const,
  checkpoints: (agentId: number) => ['evaluations', 'checkpoints', agentId] as const,
};

const ENDED: ReadonlySet<EvaluationStatus> = new Set(['completed', 'cancelled', 'budget_exhausted', 'failed']);
export const hasEnded = (status: EvaluationStatus) => ENDED.has(status);

export const datasetsQuery = (page: number) =>
  queryOptions({
    queryKey: evaluationKeys.datasetPage(page),
    queryFn: async () => (await unwrap(api.GET('/api/v2/datasets', { params: { query: { page, page_size: PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  });

export const datasetChoicesQuery = () =>
  queryOptions({
    queryKey: evaluationKeys.datasetChoices,
    queryFn: () => wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/datasets', { params: { query: { page, page_size: pageSize } } }))).data),
  });

export const datasetQuery = (id: number) =>
  queryOptions({
    queryKey: evaluationKeys.dataset(id),
    queryFn: async () => (await unwrap(api.GET('/api/v2/datasets/{dataset_id}', { params: { path: { dataset_id: id } } }))).data,
  });

export const datasetQueriesQuery = (id: number, page: number) =>
  queryOptions({
    queryKey: evaluationKeys.queries(id, page),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/datasets/{dataset_id}/queries', { params: { path: { dataset_id: id }, query: { page, page_size: PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
  });

export const metricsQuery = () =>
  queryOptions({
    queryKey: evaluationKeys.metrics,
    queryFn: () => wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/metrics', { params: { query: { page, page_size: pageSize } } }))).data),
  });

export const runsQuery = (page: number) =>
  queryOptions({
    queryKey: evaluationKeys.runPage(page),
    queryFn: async () => (await unwrap(api.GET('/api/v2/evaluations', { params: { query: { page, page_size: PAGE_SIZE } } }))).data,
    placeholderData: keepPreviousData,
    // A run still going shows its progress in the list too.
    refetchInterval: (query) => (query.state.data?.items.some((run) => !hasEnded(run.status)) ? RUN_POLL_MS : false),
  });

export const runChoicesQuery = () =>
  queryOptions({
    queryKey: evaluationKeys.runChoices,
    queryFn: () => wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/evaluations', { params: { query: { page, page_size: pageSize } } }))).data),
  });

/** One run, read again every second while it is queued or running. */
export const runQuery = (id: number) =>
  queryOptions({
    queryKey: evaluationKeys.run(id),
    queryFn: async () => (await unwrap(api.GET('/api/v2/evaluations/{evaluation_id}', { params: { path: { evaluation_id: id } } }))).data,
    refetchInterval: (query) => (query.state.data === undefined || hasEnded(query.state.data.status) ? false : RUN_POLL_MS),
  });

export const resultsQuery = (id: number, page: number, running: boolean) =>
  queryOptions({
    queryKey: evaluationKeys.results(id, page, !running),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/v2/evaluations/{evaluation_id}/query-results', { params: { path: { evaluation_id: id }, query: { page, page_size: PAGE_SIZE } } }),
        )
      ).data,
    placeholderData: keepPreviousData,
    refetchInterval: running ? RUN_POLL_MS : false,
  });

/** The largest page of a comparison's queries; a comparison is read whole, up to 10 pages. */
const COMPARE_PAGE_SIZE = 100;
const MAX_COMPARE_PAGES = 10;

/** The whole comparison: the metrics, and every paired query (up to 1,000) for the intervals and the list. */
export const comparisonQuery = (ids: readonly number[]) =>
  queryOptions({
    queryKey: evaluationKeys.comparison(ids),
    queryFn: async () => {
      const read = async (page: number) =>
        (await unwrap(api.GET('/api/v2/evaluations/compare', { params: { query: { ids: ids.join(','), page, page_size: COMPARE_PAGE_SIZE } } }))).data;
      const first = await read(1);
      const items = [...first.queries.items];
      for (let page = 2; page <= MAX_COMPARE_PAGES && items.length < first.queries.total; page++) items.push(...(await read(page)).queries.items);
      return { ...first, queries: { ...first.queries, items } };
    },
    enabled: ids.length === 2,
  });

export const agentChoicesQuery = () =>
  queryOptions({
    queryKey: evaluationKeys.agents,
    queryFn: () => wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/agents', { params: { query: { page, page_size: pageSize } } }))).data),
  });

export const checkpointsQuery = (agentId: number | null) =>
  queryOptions({
    queryKey: evaluationKeys.checkpoints(agentId ?? 0),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/agents/{agent_id}/history', { params: { path: { agent_id: agentId ?? 0 }, query: { page: 1, page_size: 100 } } }))).data.items,
    enabled: agentId !== null,
  });

/** One record of an agent's history: records are never rewritten, so it is read once. */
export const checkpointQuery = (agentId: number, historyId: number) =>
  queryOptions({
    queryKey: ['evaluations', 'checkpoint', agentId, historyId] as const,
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/agents/{agent_id}/history/{history_id}', { params: { path: { agent_id: agentId, history_id: historyId } } }))).data,
    staleTime: Infinity,
  });

/**
 * Adds queries from a CSV text as a text/csv body (up to 5 MiB, where a JSON body stops at the
 * server's JSON limit). A raw fetch: the typed client sends JSON only.
 */
export async function addQueriesCsv(datasetId: number, csv: string) {
  let response: Response;
  try {
    response = await fetch(`/api/v2/datasets/${datasetId}/queries`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'text/csv', ...csrfHeaders() },
      body: csv,
    });
  } catch {
    throw errorOf(undefined, { status: 0, statusText: '' });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 401) reportSessionEnded();
  if (!response.ok) throw errorOf(body, response);
  return (body as { data: Schemas['AddedQueries'] }).data;
}

export async function addQueriesJson(datasetId: number, queries: NewQuery[]) {
  return (await unwrap(api.POST('/api/v2/datasets/{dataset_id}/queries', { params: { path: { dataset_id: datasetId } }, body: { queries } }))).data;
}

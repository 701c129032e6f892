// "What changed" for each row of a history page: the fields that differ from the record just before
// it. The list gives no snapshots, so each record's is read (once: records never change), plus the
// record just before the page's oldest row (the first of the next page, read as a page of one).
import { useQueries, useQuery } from '@tanstack/react-query';
import { fetchHistoryPage, historyKeys, recordQuery, type HistoryRecord } from './history-api';
import { changesBetween } from './snapshot-changes';

export type RowChanges =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | { state: 'first' }
  | { state: 'ready'; labels: string[] };

interface PageInfo {
  page: number;
  pageSize: number;
  total: number;
}

export function useRecordChanges(agentId: number, records: HistoryRecord[], { page, pageSize, total }: PageInfo): Map<number, RowChanges> {
  const hasOlder = page * pageSize < total;
  const olderPosition = page * pageSize + 1;
  const older = useQuery({
    queryKey: historyKeys.page(agentId, olderPosition, 1),
    queryFn: () => fetchHistoryPage(agentId, olderPosition, 1),
    enabled: hasOlder && records.length > 0,
  });
  const olderRecord = older.data?.items[0];
  const ids = records.map((record) => record.history_id);
  if (olderRecord !== undefined) ids.push(olderRecord.history_id);
  const details = useQueries({ queries: ids.map((id) => recordQuery(agentId, id)) });

  const result = new Map<number, RowChanges>();
  records.forEach((record, index) => {
    const current = details[index];
    const isOldest = index === records.length - 1;
    if (isOldest && !hasOlder) return void result.set(record.history_id, { state: 'first' });
    if (isOldest && older.isError) return void result.set(record.history_id, { state: 'failed', error: older.error });
    const previous = details[index + 1];
    const failed = [current, previous].find((query) => query?.isError === true);
    if (failed !== undefined) return void result.set(record.history_id, { state: 'failed', error: failed.error });
    if (current?.data === undefined || previous?.data === undefined) return void result.set(record.history_id, { state: 'loading' });
    const labels = changesBetween(previous.data.snapshot, current.data.snapshot).map((change) =>
      change.field === 'status' ? 'Status' : change.label,
    );
    result.set(record.history_id, { state: 'ready', labels });
  });
  return result;
}

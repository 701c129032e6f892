// The one list contract of repositories: a window of rows (ListWindow: limit and offset) and how
// many rows the whole list holds (ListSlice), read in one query with `count(*) over ()`, which both
// SQLite and PostgreSQL evaluate before LIMIT. Only a window past the end, which returns no row to
// carry the count, costs a second query. Queries over aliased or joined tables are taken as they are.
import { sql, type SelectQueryBuilder } from 'kysely';
import { rowLimit, type ListSlice, type ListWindow } from '../pagination.js';

export async function selectSlice<Tables, TB extends keyof Tables, O>(
  query: SelectQueryBuilder<Tables, TB, O>,
  window: ListWindow,
): Promise<ListSlice<O>> {
  const counted = query.select(sql<number>`count(*) over ()`.as('whole_list_count'));
  const rows = (await counted.limit(rowLimit(window)).offset(window.offset).execute()) as (O & { whole_list_count: number })[];
  const first = rows[0];
  if (first === undefined) return { items: [], total: window.offset === 0 ? 0 : await countAll(query) };
  const total = Number(first.whole_list_count);
  const items = rows.map(({ whole_list_count: _count, ...row }) => row as O);
  return { items, total };
}

async function countAll<Tables, TB extends keyof Tables, O>(query: SelectQueryBuilder<Tables, TB, O>): Promise<number> {
  const row = (await query.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('whole_list_count')).executeTakeFirst()) as
    | { whole_list_count: number }
    | undefined;
  return Number(row?.whole_list_count ?? 0);
}

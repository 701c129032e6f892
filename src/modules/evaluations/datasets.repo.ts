// Evaluation datasets and their queries, every statement scoped by organization. Expected sources
// and tags are JSON text in the row, decoded here.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, EvaluationDatasetsTable, EvaluationQueriesTable } from '../../db/schema.js';
import type { ExpectedSource } from '../../evaluation/index.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type NewDataset = Insertable<EvaluationDatasetsTable>;
export type DatasetChange = Updateable<Pick<EvaluationDatasetsTable, 'name' | 'description' | 'modified_on' | 'modified_by'>>;

/** A query as services see it: its lists decoded. */
export interface NewQuery {
  question: string;
  expected_answer: string | null;
  expected_sources: ExpectedSource[];
  tags: string[];
}

type QueryChange = Partial<NewQuery> & { modified_on: string; modified_by: number };

/** Rows a multi-row insert carries at most: bounds the statement's parameters on both databases. */
const INSERT_BATCH = 500;

function decodeQuery<Row extends { expected_sources: string; tags: string }>(row: Row) {
  return { ...row, expected_sources: JSON.parse(row.expected_sources) as ExpectedSource[], tags: JSON.parse(row.tags) as string[] };
}

function encodeQuery(query: Partial<NewQuery>) {
  const { expected_sources: sources, tags, ...rest } = query;
  return { ...rest, ...(sources === undefined ? {} : { expected_sources: JSON.stringify(sources) }), ...(tags === undefined ? {} : { tags: JSON.stringify(tags) }) };
}

export class DatasetsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private datasets(organizationId: number) {
    return this.db
      .selectFrom('evaluation_datasets as d')
      .innerJoin('users as creator', 'creator.id', 'd.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'd.modified_by')
      .where('d.organization_id', '=', organizationId)
      .selectAll('d')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email'])
      .select((eb) => eb.selectFrom('evaluation_queries as q').select(eb.fn.countAll<number>().as('n')).whereRef('q.dataset_id', '=', 'd.id').as('query_count'));
  }

  async list(organizationId: number, filter: { q?: string | undefined }, window: ListWindow): Promise<ListSlice<DatasetRecord>> {
    let query = this.datasets(organizationId);
    if (filter.q) {
      const text = filter.q;
      query = query.where((eb) => this.dialect.containsIgnoringCase(eb.ref('d.name'), text));
    }
    const slice = await selectSlice(query.orderBy('d.id', 'desc'), window);
    return { items: slice.items.map(withCount), total: slice.total };
  }

  async find(organizationId: number, datasetId: number): Promise<DatasetRecord | undefined> {
    const row = await this.datasets(organizationId).where('d.id', '=', datasetId).executeTakeFirst();
    return row && withCount(row);
  }

  async insert(dataset: NewDataset): Promise<number> {
    try {
      return (await this.db.insertInto('evaluation_datasets').values(dataset).returning('id').executeTakeFirstOrThrow()).id;
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a dataset', dataset.name);
    }
  }

  async update(organizationId: number, datasetId: number, change: DatasetChange): Promise<void> {
    try {
      await this.db.updateTable('evaluation_datasets').set(change).where('organization_id', '=', organizationId).where('id', '=', datasetId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a dataset', change.name);
    }
  }

  async delete(organizationId: number, datasetId: number): Promise<void> {
    await this.db.deleteFrom('evaluation_datasets').where('organization_id', '=', organizationId).where('id', '=', datasetId).execute();
  }

  private queries(organizationId: number, datasetId: number) {
    return this.db
      .selectFrom('evaluation_queries as q')
      .innerJoin('users as creator', 'creator.id', 'q.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'q.modified_by')
      .where('q.organization_id', '=', organizationId)
      .where('q.dataset_id', '=', datasetId)
      .selectAll('q')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  async listQueries(organizationId: number, datasetId: number, window: ListWindow) {
    const slice = await selectSlice(this.queries(organizationId, datasetId).orderBy('q.id'), window);
    return { items: slice.items.map(decodeQuery), total: slice.total };
  }

  async findQuery(organizationId: number, datasetId: number, queryId: number) {
    const row = await this.queries(organizationId, datasetId).where('q.id', '=', queryId).executeTakeFirst();
    return row && decodeQuery(row);
  }

  async countQueries(datasetId: number): Promise<number> {
    const row = await this.db.selectFrom('evaluation_queries').select((eb) => eb.fn.countAll<number>().as('n')).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every query of a dataset, in order, for an evaluation to copy. */
  async allQueries(organizationId: number, datasetId: number) {
    const rows = await this.db
      .selectFrom('evaluation_queries')
      .select(['id', 'question', 'expected_answer', 'expected_sources'])
      .where('organization_id', '=', organizationId)
      .where('dataset_id', '=', datasetId)
      .orderBy('id')
      .execute();
    return rows;
  }

  /** Adds queries in order; their ids, in the same order. */
  async insertQueries(
    organizationId: number,
    datasetId: number,
    queries: readonly NewQuery[],
    audit: { at: string; userId: number },
  ): Promise<number[]> {
    const ids: number[] = [];
    for (let start = 0; start < queries.length; start += INSERT_BATCH) {
      const rows = queries.slice(start, start + INSERT_BATCH).map((query) => ({
        organization_id: organizationId,
        dataset_id: datasetId,
        ...encodeQuery(query),
        created_on: audit.at,
        created_by: audit.userId,
        modified_on: audit.at,
        modified_by: audit.userId,
      }));
      const inserted = await this.db.insertInto('evaluation_queries').values(rows as Insertable<EvaluationQueriesTable>[]).returning('id').execute();
      // Both databases return the rows of a multi-row insert in the order of its VALUES.
      ids.push(...inserted.map((row) => row.id));
    }
    return ids;
  }

  async updateQuery(organizationId: number, datasetId: number, queryId: number, change: QueryChange): Promise<void> {
    await this.db
      .updateTable('evaluation_queries')
      .set(encodeQuery(change))
      .where('organization_id', '=', organizationId)
      .where('dataset_id', '=', datasetId)
      .where('id', '=', queryId)
      .execute();
  }

  async deleteQuery(organizationId: number, datasetId: number, queryId: number): Promise<void> {
    await this.db.deleteFrom('evaluation_queries').where('organization_id', '=', organizationId).where('dataset_id', '=', datasetId).where('id', '=', queryId).execute();
  }

  /** Marks the dataset changed (a query added, changed or deleted). */
  async touch(organizationId: number, datasetId: number, at: string, userId: number): Promise<void> {
    await this.update(organizationId, datasetId, { modified_on: at, modified_by: userId });
  }
}

function withCount<Row extends { query_count: unknown }>(row: Row): Row & { query_count: number } {
  return { ...row, query_count: Number(row.query_count ?? 0) };
}

export type DatasetRecord = Selectable<EvaluationDatasetsTable> & { created_by_email: string; modified_by_email: string; query_count: number };
export type QueryRecord = NonNullable<Awaited<ReturnType<DatasetsRepo['findQuery']>>>;

// Datasets of queries to evaluate agents on: created, listed, changed and deleted; queries added as
// JSON or CSV (bounded in rows and bytes, every problem reported by line, nothing added unless all
// of it is good), changed and deleted one by one. Everyone in the organization reads them; see
// evaluation.policy.ts for who changes them.
import { now } from '../../clock.js';
import { BadRequest, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { DatasetRecord, NewQuery } from './datasets.repo.js';
import {
  MAX_DATASET_QUERIES,
  MAX_IMPORT_QUERIES,
  type AddQueriesInput,
  type CreateDatasetInput,
  type DatasetQueryView,
  type DatasetView,
  type NewQueryInput,
  type UpdateDatasetInput,
  type UpdateQueryInput,
} from './datasets.schemas.js';
import { evaluationPolicy } from './evaluation.policy.js';
import { presentDataset, presentQuery } from './evaluation.presenters.js';
import { parseQueriesCsv } from './query-import.js';

const QUERY_FIELDS = ['question', 'expected_answer', 'expected_sources', 'tags'] as const;

/** A query as given in JSON, its lists without repeats and its question trimmed. */
function queryFromJson(input: NewQueryInput): NewQuery {
  return {
    question: input.question.trim(),
    expected_answer: input.expected_answer?.trim() || null,
    expected_sources: [...new Set(input.expected_sources ?? [])],
    tags: [...new Set((input.tags ?? []).map((tag) => tag.trim()))],
  };
}

export class DatasetsService {
  constructor(private readonly store: UnitOfWork) {}

  async requireDataset(actor: Actor, datasetId: number, repos: Repositories = this.store.repos): Promise<DatasetRecord> {
    const dataset = await repos.datasets.find(actor.organizationId, datasetId);
    if (!dataset) throw new NotFound('dataset', datasetId);
    return dataset;
  }

  private async requireChangeable(actor: Actor, datasetId: number, doing: string): Promise<DatasetRecord> {
    const dataset = await this.requireDataset(actor, datasetId);
    authorize(evaluationPolicy.mayChange(actor, dataset), `Only owners, admins and the dataset’s creator may ${doing}`);
    return dataset;
  }

  async list(actor: Actor, filter: { q?: string | undefined }, window: ListWindow): Promise<ListSlice<DatasetView>> {
    const { items, total } = await this.store.repos.datasets.list(actor.organizationId, filter, window);
    return { items: items.map(presentDataset), total };
  }

  async get(actor: Actor, datasetId: number): Promise<DatasetView> {
    return presentDataset(await this.requireDataset(actor, datasetId));
  }

  async create(actor: Actor, input: CreateDatasetInput): Promise<DatasetView> {
    authorize(evaluationPolicy.mayCreate(actor), 'Viewers may not create datasets');
    const at = now();
    const id = await this.store.repos.datasets.insert({
      organization_id: actor.organizationId,
      name: input.name.trim(),
      description: input.description ?? '',
      created_on: at,
      created_by: actor.userId,
      modified_on: at,
      modified_by: actor.userId,
    });
    return this.get(actor, id);
  }

  async update(actor: Actor, datasetId: number, input: UpdateDatasetInput): Promise<DatasetView> {
    await this.requireChangeable(actor, datasetId, 'change a dataset');
    const fields = sentFields(input, ['name', 'description'] as const);
    await this.store.repos.datasets.update(actor.organizationId, datasetId, { ...fields, ...(fields.name ? { name: fields.name.trim() } : {}), modified_on: now(), modified_by: actor.userId });
    return this.get(actor, datasetId);
  }

  /** Its queries go with it; evaluations made with it keep their copies of the queries. */
  async remove(actor: Actor, datasetId: number): Promise<{ id: number }> {
    await this.requireChangeable(actor, datasetId, 'delete a dataset');
    await this.store.repos.datasets.delete(actor.organizationId, datasetId);
    return { id: datasetId };
  }

  async listQueries(actor: Actor, datasetId: number, window: ListWindow): Promise<ListSlice<DatasetQueryView>> {
    await this.requireDataset(actor, datasetId);
    const { items, total } = await this.store.repos.datasets.listQueries(actor.organizationId, datasetId, window);
    return { items: items.map(presentQuery), total };
  }

  /** All or nothing: a single bad row (reported by line) adds none. */
  async addQueries(actor: Actor, datasetId: number, input: AddQueriesInput): Promise<{ added: number; ids: number[] }> {
    await this.requireChangeable(actor, datasetId, 'add queries to a dataset');
    const queries = this.queriesOf(input);
    const at = now();
    return this.store.transaction(async (repos) => {
      const held = await repos.datasets.countQueries(datasetId);
      if (held + queries.length > MAX_DATASET_QUERIES) {
        throw new BadRequest(`Dataset ${datasetId} holds ${held} queries: ${queries.length} more would pass the ${MAX_DATASET_QUERIES.toLocaleString('en')} a dataset may hold`, [
          { pointer: input.csv === undefined ? '/body/queries' : '/body/csv', message: `at most ${MAX_DATASET_QUERIES - held} more queries` },
        ]);
      }
      const ids = await repos.datasets.insertQueries(actor.organizationId, datasetId, queries, { at, userId: actor.userId });
      await repos.datasets.touch(actor.organizationId, datasetId, at, actor.userId);
      return { added: ids.length, ids };
    });
  }

  private queriesOf(input: AddQueriesInput): NewQuery[] {
    if ((input.queries === undefined) === (input.csv === undefined)) {
      throw new BadRequest('Send either queries (a JSON list) or csv (a CSV text), not both and not neither', [{ pointer: '/body', message: 'needs exactly one of queries and csv' }]);
    }
    return input.queries !== undefined ? input.queries.map(queryFromJson) : parseQueriesCsv(input.csv!, MAX_IMPORT_QUERIES);
  }

  async updateQuery(actor: Actor, datasetId: number, queryId: number, input: UpdateQueryInput): Promise<DatasetQueryView> {
    await this.requireChangeable(actor, datasetId, 'change queries of a dataset');
    const repos = this.store.repos;
    const current = await repos.datasets.findQuery(actor.organizationId, datasetId, queryId);
    if (!current) throw new NotFound('dataset_query', queryId);
    const merged = queryFromJson({ ...current, ...sentFields(input, QUERY_FIELDS) });
    const at = now();
    await this.store.transaction(async (trx) => {
      await trx.datasets.updateQuery(actor.organizationId, datasetId, queryId, { ...merged, modified_on: at, modified_by: actor.userId });
      await trx.datasets.touch(actor.organizationId, datasetId, at, actor.userId);
    });
    return presentQuery((await repos.datasets.findQuery(actor.organizationId, datasetId, queryId))!);
  }

  async removeQuery(actor: Actor, datasetId: number, queryId: number): Promise<{ id: number }> {
    await this.requireChangeable(actor, datasetId, 'delete queries of a dataset');
    if (!(await this.store.repos.datasets.findQuery(actor.organizationId, datasetId, queryId))) throw new NotFound('dataset_query', queryId);
    const at = now();
    await this.store.transaction(async (repos) => {
      await repos.datasets.deleteQuery(actor.organizationId, datasetId, queryId);
      await repos.datasets.touch(actor.organizationId, datasetId, at, actor.userId);
    });
    return { id: queryId };
  }
}

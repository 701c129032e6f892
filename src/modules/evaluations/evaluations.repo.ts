// Evaluations, their tags and their progress, every statement scoped by organization. The results
// and scores of an evaluation are in evaluation-results.repo.ts.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import { precompiled } from '../../db/precompiled.js';
import type { DB, EvaluationResultStatus, EvaluationStatus, EvaluationsTable } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type NewEvaluation = Insertable<EvaluationsTable>;
export type EvaluationChange = Updateable<Omit<EvaluationsTable, 'id' | 'organization_id' | 'created_on' | 'created_by'>>;
export type EvaluationRecord = Selectable<EvaluationsTable> & { created_by_email: string; modified_by_email: string; tags: string[] };

export interface EvaluationFilter {
  tag?: string | undefined;
  agentId?: number | undefined;
  datasetId?: number | undefined;
  status?: EvaluationStatus | undefined;
}

/** What a run goes by between queries: whether it still runs, and what it has spent (nano-USD). */
export interface RunState {
  status: EvaluationStatus;
  spent_nano_usd: number;
}

/** How many of an evaluation's results are in each state. */
export type ResultCounts = Record<EvaluationResultStatus, number>;

// Read when a run starts: compiled once (src/db/precompiled.ts).
const runStateOf = precompiled(2, (db: Kysely<DB>, organizationId: number, evaluationId: number) =>
  db.selectFrom('evaluations').select(['status', 'spent_nano_usd']).where('organization_id', '=', organizationId).where('id', '=', evaluationId),
);

export const NO_RESULTS: ResultCounts = { pending: 0, completed: 0, blocked: 0, failed: 0 };

export class EvaluationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private evaluations(organizationId: number) {
    return this.db
      .selectFrom('evaluations as e')
      .innerJoin('users as creator', 'creator.id', 'e.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'e.modified_by')
      .where('e.organization_id', '=', organizationId)
      .selectAll('e')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  async list(organizationId: number, filter: EvaluationFilter, window: ListWindow): Promise<ListSlice<EvaluationRecord>> {
    let query = this.evaluations(organizationId);
    if (filter.agentId !== undefined) query = query.where('e.agent_id', '=', filter.agentId);
    if (filter.datasetId !== undefined) query = query.where('e.dataset_id', '=', filter.datasetId);
    if (filter.status !== undefined) query = query.where('e.status', '=', filter.status);
    const tag = filter.tag;
    if (tag !== undefined) {
      query = query.where((eb) => eb.exists(eb.selectFrom('evaluation_tags as g').select('g.evaluation_id').whereRef('g.evaluation_id', '=', 'e.id').where('g.tag', '=', tag)));
    }
    const slice = await selectSlice(query.orderBy('e.id', 'desc'), window);
    return { items: await this.withTags(slice.items), total: slice.total };
  }

  async find(organizationId: number, evaluationId: number): Promise<EvaluationRecord | undefined> {
    const row = await this.evaluations(organizationId).where('e.id', '=', evaluationId).executeTakeFirst();
    return row && (await this.withTags([row]))[0];
  }

  /** Several evaluations by id, in the order asked; those not found are left out. */
  async findMany(organizationId: number, evaluationIds: number[]): Promise<EvaluationRecord[]> {
    if (evaluationIds.length === 0) return [];
    const rows = await this.withTags(await this.evaluations(organizationId).where('e.id', 'in', evaluationIds).execute());
    const byId = new Map(rows.map((row) => [row.id, row]));
    return evaluationIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async insert(evaluation: NewEvaluation): Promise<number> {
    return (await this.db.insertInto('evaluations').values(evaluation).returning('id').executeTakeFirstOrThrow()).id;
  }

  async update(organizationId: number, evaluationId: number, change: EvaluationChange): Promise<void> {
    await this.db.updateTable('evaluations').set(change).where('organization_id', '=', organizationId).where('id', '=', evaluationId).execute();
  }

  /** Changes the status only from one of `from`; false when the evaluation was in another state (or is gone). */
  async moveStatus(organizationId: number, evaluationId: number, from: EvaluationStatus[], change: EvaluationChange): Promise<boolean> {
    const result = await this.db
      .updateTable('evaluations')
      .set(change)
      .where('organization_id', '=', organizationId)
      .where('id', '=', evaluationId)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(organizationId: number, evaluationId: number): Promise<void> {
    await this.db.deleteFrom('evaluations').where('organization_id', '=', organizationId).where('id', '=', evaluationId).execute();
  }

  async setTags(organizationId: number, evaluationId: number, tags: string[]): Promise<void> {
    await this.db.deleteFrom('evaluation_tags').where('evaluation_id', '=', evaluationId).execute();
    if (tags.length > 0) {
      await this.db
        .insertInto('evaluation_tags')
        .values(tags.map((tag) => ({ evaluation_id: evaluationId, organization_id: organizationId, tag })))
        .execute();
    }
  }

  /** The tags on the organization's evaluations, with how many carry each. */
  async tagsInUse(organizationId: number): Promise<{ tag: string; evaluations: number }[]> {
    const rows = await this.db
      .selectFrom('evaluation_tags')
      .select((eb) => ['tag', eb.fn.countAll<number>().as('evaluations')])
      .where('organization_id', '=', organizationId)
      .groupBy('tag')
      .orderBy('tag')
      .execute();
    return rows.map((row) => ({ tag: row.tag, evaluations: Number(row.evaluations) }));
  }

  /** Results by state, for each of the evaluations. */
  async resultCounts(evaluationIds: number[]): Promise<Map<number, ResultCounts>> {
    const counts = new Map<number, ResultCounts>(evaluationIds.map((id) => [id, { ...NO_RESULTS }]));
    if (evaluationIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('evaluation_results')
      .select((eb) => ['evaluation_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('evaluation_id', 'in', evaluationIds)
      .groupBy(['evaluation_id', 'status'])
      .execute();
    for (const row of rows) counts.get(row.evaluation_id)![row.status] = Number(row.n);
    return counts;
  }

  /** What the runner reads between queries: the status (another process may have cancelled it) and what was spent. */
  async runState(organizationId: number, evaluationId: number): Promise<RunState | undefined> {
    const row = (await runStateOf(this.db, organizationId, evaluationId))[0];
    return row && { status: row.status, spent_nano_usd: Number(row.spent_nano_usd) };
  }

  /**
   * Adds what answers and judges cost to what the evaluation spent, and answers its state as it is
   * then (undefined when it is gone): the runner's read of it after each write, in the same statement.
   */
  async addSpent(evaluationId: number, nanoUsd: number): Promise<RunState | undefined> {
    const row = await this.db
      .updateTable('evaluations')
      .set({ spent_nano_usd: sql`spent_nano_usd + ${nanoUsd}` })
      .where('id', '=', evaluationId)
      .returning(['status', 'spent_nano_usd'])
      .executeTakeFirst();
    return row && { status: row.status, spent_nano_usd: Number(row.spent_nano_usd) };
  }

  private async withTags<Row extends { id: number }>(rows: Row[]): Promise<(Row & { tags: string[] })[]> {
    if (rows.length === 0) return [];
    const tags = await this.db
      .selectFrom('evaluation_tags')
      .select(['evaluation_id', 'tag'])
      .where(
        'evaluation_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('tag')
      .execute();
    const byEvaluation = new Map<number, string[]>();
    for (const { evaluation_id: id, tag } of tags) byEvaluation.set(id, [...(byEvaluation.get(id) ?? []), tag]);
    return rows.map((row) => ({ ...row, tags: byEvaluation.get(row.id) ?? [] }));
  }
}

// The results of evaluations: a row per query (a copy of the query, then the answer) and a row per
// query and metric (the score), with the sums a summary is made of. Reads go through the
// evaluation's organization; the runner writes only rows of the evaluation it holds the job of.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, EvaluationResultStatus, EvaluationResultsTable, EvaluationScoresTable, ScoreStatus } from '../../db/schema.js';
import type { ScoreSums } from '../../evaluation/index.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type ResultRow = Selectable<EvaluationResultsTable>;
export type ScoreRow = Selectable<EvaluationScoresTable>;
export type AnsweredResult = Updateable<Omit<EvaluationResultsTable, 'id' | 'organization_id' | 'evaluation_id' | 'query_id' | 'position'>>;
export type ResultWithScores = ResultRow & { scores: ScoreRow[] };

/** A query copied into an evaluation when it is created. */
export interface CopiedQuery {
  query_id: number;
  question: string;
  expected_answer: string | null;
  /** JSON text, as the dataset holds it. */
  expected_sources: string;
}

const INSERT_BATCH = 500;

export class EvaluationResultsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** One pending result per query, numbered from 1 in the dataset's order. */
  async insertPending(organizationId: number, evaluationId: number, queries: readonly CopiedQuery[]): Promise<void> {
    for (let start = 0; start < queries.length; start += INSERT_BATCH) {
      const rows: Insertable<EvaluationResultsTable>[] = queries.slice(start, start + INSERT_BATCH).map((query, index) => ({
        organization_id: organizationId,
        evaluation_id: evaluationId,
        position: start + index + 1,
        status: 'pending',
        ...query,
      }));
      await this.db.insertInto('evaluation_results').values(rows).execute();
    }
  }

  /** The results still to answer, in order. */
  pending(evaluationId: number) {
    return this.db
      .selectFrom('evaluation_results')
      .select(['id', 'position', 'question', 'expected_answer', 'expected_sources'])
      .where('evaluation_id', '=', evaluationId)
      .where('status', '=', 'pending')
      .orderBy('position')
      .execute();
  }

  /** Writes a pending result's answer; false when it was answered already (or is gone). */
  async saveAnswered(evaluationId: number, resultId: number, answered: AnsweredResult): Promise<boolean> {
    const result = await this.db
      .updateTable('evaluation_results')
      .set(answered)
      .where('evaluation_id', '=', evaluationId)
      .where('id', '=', resultId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertScores(scores: Insertable<EvaluationScoresTable>[]): Promise<void> {
    for (let start = 0; start < scores.length; start += INSERT_BATCH) {
      await this.db.insertInto('evaluation_scores').values(scores.slice(start, start + INSERT_BATCH)).execute();
    }
  }

  /** The sums of each metric's scores over the evaluation: what a summary needs, read from the index. */
  async metricSums(evaluationId: number): Promise<Map<number, ScoreSums>> {
    const rows = await this.db
      .selectFrom('evaluation_scores')
      .select((eb) => [
        'metric_id',
        'status',
        eb.fn.countAll<number>().as('n'),
        sql<number | null>`sum(score)`.as('total'),
        sql<number | null>`sum(score * score)`.as('squares'),
        sql<number | null>`sum(passed)`.as('passed'),
        eb.fn.count<number>('passed').as('judged'),
      ])
      .where('evaluation_id', '=', evaluationId)
      .groupBy(['metric_id', 'status'])
      .execute();
    const sums = new Map<number, ScoreSums>();
    for (const row of rows) {
      const metric = sums.get(row.metric_id) ?? { n: 0, sum: 0, sumOfSquares: 0, passed: 0, judged: 0, undetermined: 0, errors: 0 };
      const count = Number(row.n);
      if (row.status === 'undetermined') metric.undetermined += count;
      else if (row.status === 'error') metric.errors += count;
      else {
        metric.n += count;
        metric.sum += Number(row.total ?? 0);
        metric.sumOfSquares += Number(row.squares ?? 0);
        metric.passed += Number(row.passed ?? 0);
        metric.judged += Number(row.judged);
      }
      sums.set(row.metric_id, metric);
    }
    return sums;
  }

  async list(organizationId: number, evaluationId: number, filter: { status?: EvaluationResultStatus | undefined }, window: ListWindow): Promise<ListSlice<ResultWithScores>> {
    let query = this.db.selectFrom('evaluation_results').selectAll().where('organization_id', '=', organizationId).where('evaluation_id', '=', evaluationId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const slice = await selectSlice(query.orderBy('position'), window);
    return { items: await this.withScores(slice.items), total: slice.total };
  }

  async find(organizationId: number, evaluationId: number, resultId: number): Promise<ResultWithScores | undefined> {
    const row = await this.db
      .selectFrom('evaluation_results')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('evaluation_id', '=', evaluationId)
      .where('id', '=', resultId)
      .executeTakeFirst();
    return row && (await this.withScores([row]))[0];
  }

  /** Scores with the query they are of, by metric then query. */
  listScores(organizationId: number, evaluationId: number, filter: { metricId?: number | undefined; status?: ScoreStatus | undefined }, window: ListWindow) {
    let query = this.db
      .selectFrom('evaluation_scores as s')
      .innerJoin('evaluation_results as r', 'r.id', 's.result_id')
      .select(['s.result_id', 's.metric_id', 's.status', 's.score', 's.passed', 's.reason', 'r.query_id', 'r.position', 'r.question'])
      .where('r.organization_id', '=', organizationId)
      .where('s.evaluation_id', '=', evaluationId);
    if (filter.metricId !== undefined) query = query.where('s.metric_id', '=', filter.metricId);
    if (filter.status !== undefined) query = query.where('s.status', '=', filter.status);
    return selectSlice(query.orderBy('s.metric_id').orderBy('r.position'), window);
  }

  /** Every result of the evaluations, with its scores, in order: what a comparison pairs. */
  async allOf(organizationId: number, evaluationIds: number[]) {
    if (evaluationIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('evaluation_results')
      .select(['id', 'evaluation_id', 'query_id', 'position', 'question', 'status', 'answer', 'error'])
      .where('organization_id', '=', organizationId)
      .where('evaluation_id', 'in', evaluationIds)
      .orderBy('evaluation_id')
      .orderBy('position')
      .execute();
    const scores = await this.db
      .selectFrom('evaluation_scores')
      .select(['result_id', 'metric_id', 'status', 'score', 'passed'])
      .where('evaluation_id', 'in', evaluationIds)
      .execute();
    const byResult = new Map<number, (typeof scores)[number][]>();
    for (const score of scores) byResult.set(score.result_id, [...(byResult.get(score.result_id) ?? []), score]);
    return rows.map((row) => ({ ...row, scores: byResult.get(row.id) ?? [] }));
  }

  private async withScores(rows: ResultRow[]): Promise<ResultWithScores[]> {
    if (rows.length === 0) return [];
    const scores = await this.db
      .selectFrom('evaluation_scores')
      .selectAll()
      .where(
        'result_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('metric_id')
      .execute();
    const byResult = new Map<number, ScoreRow[]>();
    for (const score of scores) byResult.set(score.result_id, [...(byResult.get(score.result_id) ?? []), score]);
    return rows.map((row) => ({ ...row, scores: byResult.get(row.id) ?? [] }));
  }
}

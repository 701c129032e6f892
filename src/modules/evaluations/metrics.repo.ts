// Metric definitions: the built-in rows (organization_id null), which every organization sees, and
// each organization's own. Writes touch only an organization's own rows.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, EvaluationMetricsTable } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type NewMetric = Insertable<EvaluationMetricsTable>;
export type MetricChange = Updateable<Pick<EvaluationMetricsTable, 'name' | 'description' | 'parameters' | 'threshold' | 'rubric' | 'llm_configuration_id' | 'modified_on' | 'modified_by'>>;

export interface MetricFilter {
  builtin?: boolean | undefined;
  kind?: string | undefined;
}

export class MetricsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The built-in metrics and the organization's own, with their authors' e-mails (none for built-ins). */
  private visible(organizationId: number) {
    return this.db
      .selectFrom('evaluation_metrics as m')
      .leftJoin('users as creator', 'creator.id', 'm.created_by')
      .leftJoin('users as modifier', 'modifier.id', 'm.modified_by')
      .where((eb) => eb.or([eb('m.organization_id', '=', organizationId), eb.and([eb('m.organization_id', 'is', null), eb('m.builtin', '=', 1)])]))
      .selectAll('m')
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  list(organizationId: number, filter: MetricFilter, window: ListWindow): Promise<ListSlice<MetricRecord>> {
    let query = this.visible(organizationId);
    if (filter.builtin !== undefined) query = query.where('m.builtin', '=', filter.builtin ? 1 : 0);
    if (filter.kind !== undefined) query = query.where('m.kind', '=', filter.kind);
    // Built-in metrics first, in their catalogue order, then the organization's own.
    return selectSlice(query.orderBy('m.builtin', 'desc').orderBy('m.id'), window);
  }

  find(organizationId: number, metricId: number): Promise<MetricRecord | undefined> {
    return this.visible(organizationId).where('m.id', '=', metricId).executeTakeFirst();
  }

  findMany(organizationId: number, metricIds: number[]): Promise<MetricRecord[]> {
    if (metricIds.length === 0) return Promise.resolve([]);
    return this.visible(organizationId).where('m.id', 'in', metricIds).execute();
  }

  async insert(metric: NewMetric): Promise<number> {
    try {
      return (await this.db.insertInto('evaluation_metrics').values(metric).returning('id').executeTakeFirstOrThrow()).id;
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a metric', metric.name);
    }
  }

  async update(organizationId: number, metricId: number, change: MetricChange): Promise<void> {
    try {
      await this.db.updateTable('evaluation_metrics').set(change).where('organization_id', '=', organizationId).where('id', '=', metricId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a metric', change.name);
    }
  }

  async delete(organizationId: number, metricId: number): Promise<void> {
    await this.db.deleteFrom('evaluation_metrics').where('organization_id', '=', organizationId).where('id', '=', metricId).execute();
  }
}

export type MetricRecord = Selectable<EvaluationMetricsTable> & { created_by_email: string | null; modified_by_email: string | null };

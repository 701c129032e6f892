// A span aggregate (counts and sums, one row per span) read for many spans in one statement: the
// spans' whole UTC hours grouped by hour of the time column, each hour added to the span holding it
// here, and what is left at a span's ends (not on the hour) read span by span. The rows of the range
// are read once, by an index on the time column, instead of once per span with a statement each.
import { sql, type Kysely } from 'kysely';
import type { Dialect, SpanAggregate, TimeSpan } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { cutAtHours } from './hour-spans.js';

type Sums<R> = Record<keyof R & string, number>;

export async function aggregatePerSpanByHour<R extends object>(
  db: Kysely<DB>,
  dialect: Dialect,
  spans: TimeSpan[],
  time: string,
  figures: (keyof R & string)[],
  aggregate: SpanAggregate<R>,
): Promise<Sums<R>[]> {
  const cuts = spans.map(cutAtHours);
  const covered = cuts.flatMap((cut, position) => (cut.hours ? [{ from: Date.parse(cut.hours.from), to: Date.parse(cut.hours.to), position }] : []));
  const edges = cuts.flatMap((cut, position) => cut.edges.map((span) => ({ span, position })));
  const hour = sql<string>`${dialect.utcHourOf(sql.ref(time))}`;
  const [hourly, counted] = await Promise.all([
    covered.length === 0
      ? []
      : aggregate(sql.val(new Date(covered[0]!.from).toISOString()), sql.val(new Date(covered.at(-1)!.to).toISOString()))
          .select(hour.as('time_on'))
          .groupBy(hour)
          .execute(),
    edges.length === 0 ? [] : dialect.aggregatePerSpan(db, edges.map((edge) => edge.span), aggregate),
  ]);
  const sums = spans.map(() => Object.fromEntries(figures.map((name) => [name, 0])) as Sums<R>);
  const add = (into: Sums<R>, row: object) => {
    for (const name of figures) into[name] += Number((row as Record<string, unknown>)[name]);
  };
  for (const row of hourly as (R & { time_on: string })[]) {
    const at = Date.parse(row.time_on);
    // The last span starting at or before the hour; it holds the hour when it ends after it.
    let low = 0;
    let high = covered.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (covered[mid]!.from <= at) low = mid;
      else high = mid - 1;
    }
    const span = covered[low];
    if (span && span.from <= at && at < span.to) add(sums[span.position]!, row);
  }
  edges.forEach((edge, i) => add(sums[edge.position]!, counted[i]!));
  return sums;
}

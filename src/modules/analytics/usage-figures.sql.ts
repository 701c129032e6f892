// The figures of usage, each a count or a sum: what one event adds (alias e), and what one rollup row
// adds (alias r, hourly or daily rows alike). Sums are cast so that PostgreSQL answers bigint, not
// numeric, and added up in the server as integers (costs in nano-dollars), hence exact.
import { sql, type RawBuilder } from 'kysely';

/** Sum of an integer expression, 0 over no rows. */
export const total = (expression: RawBuilder<unknown>) => sql<number>`cast(coalesce(sum(${expression}), 0) as bigint)`;
/** Rows where the condition holds. */
export const countWhere = (condition: RawBuilder<unknown>) => total(sql`case when ${condition} then 1 else 0 end`);

export interface UsageFigures {
  queries: number;
  completed: number;
  blocked: number;
  failed: number;
  judge_calls: number;
  embedding_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_nano_usd: number;
  answer_cost_nano_usd: number;
  judge_cost_nano_usd: number;
  embedding_cost_nano_usd: number;
  unpriced_calls: number;
  latency_ms: number;
  timed_answers: number;
}

type Figure = [keyof UsageFigures, RawBuilder<unknown>, RawBuilder<unknown>];

/** Each usage figure: its name, what one event adds, what one rollup row adds. */
export const USAGE_FIGURES: Figure[] = [
  ...(
    [
      ['queries', "kind = 'answer'"],
      ['completed', "kind = 'answer' and {}.status = 'completed'"],
      ['blocked', "kind = 'answer' and {}.status = 'blocked'"],
      ['failed', "kind = 'answer' and {}.status = 'failed'"],
      ['judge_calls', "kind = 'judge'"],
      ['embedding_calls', "kind = 'embedding'"],
    ] as const
  ).map(([name, condition]): Figure => [
    name,
    sql.raw(`case when e.${condition.replaceAll('{}', 'e')} then 1 else 0 end`),
    sql.raw(`case when r.${condition.replaceAll('{}', 'r')} then r.events else 0 end`),
  ]),
  ['prompt_tokens', sql`e.prompt_tokens`, sql`r.prompt_tokens`],
  ['completion_tokens', sql`e.completion_tokens`, sql`r.completion_tokens`],
  ['cost_nano_usd', sql`e.cost_nano_usd`, sql`r.cost_nano_usd`],
  ...(['answer', 'judge', 'embedding'] as const).map((kind): Figure => [
    `${kind}_cost_nano_usd`,
    sql.raw(`case when e.kind = '${kind}' then e.cost_nano_usd else 0 end`),
    sql.raw(`case when r.kind = '${kind}' then r.cost_nano_usd else 0 end`),
  ]),
  ['unpriced_calls', sql`case when e.cost_nano_usd is null then 1 else 0 end`, sql`r.events - r.priced_events`],
  ['latency_ms', sql`case when e.kind = 'answer' then e.latency_ms else 0 end`, sql`case when r.kind = 'answer' then r.latency_ms else 0 end`],
  ['timed_answers', sql`case when e.kind = 'answer' and e.latency_ms is not null then 1 else 0 end`, sql`case when r.kind = 'answer' then r.timed_events else 0 end`],
];

/** Every figure 0. */
export const noUsage = (): UsageFigures => Object.fromEntries(USAGE_FIGURES.map(([name]) => [name, 0])) as unknown as UsageFigures;

/** Adds (sign 1) or takes away (sign -1) a row's figures, as the database gave them (bigint may come as text). */
export function addUsage(into: UsageFigures, row: object, sign: 1 | -1 = 1): void {
  for (const [name] of USAGE_FIGURES) into[name] += sign * Number((row as Record<string, unknown>)[name]);
}

// Rows each way of reading reads, counted in the benchmark's database after the timed requests: what
// a route reads is the work a quiet machine does, whatever the load of the machine measured on. For
// the overall figures by day over the range (Europe/Paris): the hourly rollup rows of every hour (as
// read before the daily rollups), and the daily rows plus the hours that correct their ends (as read
// now); for the ranking of users, hourly rows against daily rows and end hours; and the votes,
// ratings and documents of the range, each read once.
import { planRollupReads } from '../src/modules/analytics/rollup-plan.ts';
import { cutAtHours } from '../src/modules/analytics/hour-spans.ts';
import { bucketRange } from '../src/modules/analytics/time-buckets.ts';

/** `query(text, params)` answers the first column of the first row (SQLite `?`, PostgreSQL `$n` placeholders given as `?`). */
export async function countRowsRead(query, organizationId, range) {
  const { buckets } = bucketRange({ from: range.from, to: range.to, interval: 'day', timezone: 'Europe/Paris' }, Date.now());
  const plan = planRollupReads(buckets);
  const hours = [...plan.hours.keys()].map((ms) => new Date(ms).toISOString());
  const days = [...plan.days.keys()].sort((a, b) => a - b);
  const whole = cutAtHours({ from: range.from, to: range.to }).hours;
  const rows = async (table, time, dimension, from, to) =>
    Number(await query(`select count(*) from ${table} where organization_id = ? and dimension = ? and ${time} >= ? and ${time} < ?`, [organizationId, dimension, from, to]));
  const hourRows = async (dimension) => {
    let sum = 0;
    for (const hour of hours) sum += Number(await query(`select count(*) from usage_rollups where organization_id = ? and dimension = ? and hour_on = ?`, [organizationId, dimension, hour]));
    return sum;
  };
  const dayFrom = new Date(days[0]).toISOString();
  const dayTo = new Date(days.at(-1) + 86_400_000).toISOString();
  const wholeDays = { from: new Date(Math.ceil(Date.parse(whole.from) / 86_400_000) * 86_400_000).toISOString(), to: new Date(Math.floor(Date.parse(whole.to) / 86_400_000) * 86_400_000).toISOString() };
  const inRange = async (table, column) => Number(await query(`select count(*) from ${table} where ${column} >= ? and ${column} < ?`, [range.from, range.to]));
  return [
    ['usage by day, overall: hourly rows (before)', await rows('usage_rollups', 'hour_on', 'all', whole.from, whole.to)],
    ['usage by day, overall: daily rows + correcting hours (now)', (await rows('usage_daily_rollups', 'day_on', 'all', dayFrom, dayTo)) + (await hourRows('all'))],
    ['ranking of users: hourly rows (before)', await rows('usage_rollups', 'hour_on', 'user', whole.from, whole.to)],
    [
      'ranking of users: daily rows + end hours (now)',
      (await rows('usage_daily_rollups', 'day_on', 'user', wholeDays.from, wholeDays.to)) +
        (await rows('usage_rollups', 'hour_on', 'user', whole.from, wholeDays.from)) +
        (await rows('usage_rollups', 'hour_on', 'user', wholeDays.to, whole.to)),
    ],
    ['votes in the range (each joined to its answer event)', await inRange('response_votes', 'modified_on')],
    ['ratings in the range (each joined to its answer event)', await inRange('response_ratings', 'modified_on')],
    ['documents added in the range', await inRange('documents', 'created_on')],
  ];
}

// The points of an analytics answer: the range asked for, cut into hours, days, weeks (from Monday)
// or months of the clock of a time zone. A bucket starts when that clock reads the start of its hour,
// day, week or month, so days are 23 or 25 hours long where clocks change. The first and last buckets
// may reach outside the range; each is then counted only over its part inside it, so the points add
// up to the range exactly.
import { BadRequest } from '../../errors.js';
import { instantOfWallMs, isTimeZone, wallMs, wallTimeAt, type WallTime } from './zoned-time.js';

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** Points one answer may hold: a little over 100 days by the hour, or centuries by the month. */
export const MAX_POINTS = 2500;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The shortest each interval can be, to refuse a range with too many points before cutting it. */
const SHORTEST_MS: Record<Interval, number> = { hour: HOUR_MS, day: 23 * HOUR_MS, week: 7 * 23 * HOUR_MS, month: 28 * DAY_MS };
/** The range answered when `from` is not given: the span before `to`. */
const DEFAULT_SPAN_MS: Record<Interval, number> = { hour: DAY_MS, day: 30 * DAY_MS, week: 12 * 7 * DAY_MS, month: 365 * DAY_MS };

const EARLIEST_MS = Date.UTC(1970, 0, 1);
const LATEST_MS = Date.UTC(10000, 0, 1);

export interface RangeQuery {
  from?: string | undefined;
  to?: string | undefined;
  interval: Interval;
  timezone: string;
}

/** One point's bucket: where it starts, and the part of it inside the range (ISO 8601 instants). */
export interface Bucket {
  start: string;
  from: string;
  to: string;
}

export interface BucketedRange {
  interval: Interval;
  timezone: string;
  from: string;
  to: string;
  buckets: Bucket[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;

const invalid = (field: 'from' | 'to' | 'timezone', message: string) => new BadRequest(`${field} ${message}`, [{ pointer: `/query/${field}`, message }]);

/**
 * A moment of the query: a date (the start of that day on the zone's clock; for `to`, the end of it,
 * so that to=2026-11-30 takes in the 30th), a date and time with an offset or Z (that instant), or a
 * date and time without one (read on the zone's clock).
 */
function parseMoment(text: string, field: 'from' | 'to', timeZone: string): number {
  const date = DATE.exec(text);
  const dateTime = date ? null : DATE_TIME.exec(text);
  const parts = date ?? dateTime;
  if (!parts) throw invalid(field, 'must be a date (2026-11-23) or an ISO 8601 date-time (2026-11-23T10:00:00Z)');
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part)));
  const fraction = dateTime?.[7] ? Number(`0.${dateTime[7]}`) * 1000 : 0;
  const reading = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  const check = new Date(reading);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw invalid(field, 'is not a date of the calendar');
  }
  const zone = dateTime?.[8];
  let instant: number;
  if (zone === undefined) instant = instantOfWallMs(date && field === 'to' ? reading + DAY_MS : reading, timeZone) + fraction;
  else if (zone === 'Z') instant = reading + fraction;
  else {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [hours, minutes] = zone.slice(1).split(':').map(Number);
    if (hours! > 23 || minutes! > 59) throw invalid(field, 'has an offset out of range');
    instant = reading + fraction - sign * (hours! * HOUR_MS + minutes! * 60_000);
  }
  if (instant < EARLIEST_MS || instant > LATEST_MS) throw invalid(field, 'must be between 1970 and 9999');
  return Math.floor(instant);
}

/** The start of the bucket the instant falls in. */
export function bucketStartOf(instant: number, interval: Interval, timeZone: string): number {
  const wall = wallTimeAt(instant, timeZone);
  if (interval === 'hour') return Math.floor(instant / 1000) * 1000 - (wall.minute * 60 + wall.second) * 1000;
  return instantOfWallMs(startReading(wall, interval), timeZone);
}

function startReading(wall: WallTime, interval: Exclude<Interval, 'hour'>): number {
  if (interval === 'month') return Date.UTC(wall.year, wall.month - 1, 1);
  const day = Date.UTC(wall.year, wall.month - 1, wall.day);
  // Weeks start on Monday (ISO 8601): getUTCDay gives 0 for Sunday.
  return interval === 'week' ? day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS : day;
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucketStart(start: number, interval: Interval, timeZone: string): number {
  if (interval === 'hour') {
    // An hour later, unless the clock then reads a part of an hour (Lord Howe Island moves by half
    // hours): then when it next reads a whole hour.
    const next = start + HOUR_MS;
    const wall = wallTimeAt(next, timeZone);
    if (wall.minute === 0 && wall.second === 0) return next;
    const byReading = instantOfWallMs(wallMs({ ...wallTimeAt(start, timeZone), minute: 0, second: 0 }) + HOUR_MS, timeZone);
    return byReading > start ? byReading : next;
  }
  const wall = wallTimeAt(start, timeZone);
  const reading = startReading(wall, interval);
  const date = new Date(reading);
  const following =
    interval === 'month' ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) : reading + (interval === 'week' ? 7 : 1) * DAY_MS;
  return instantOfWallMs(following, timeZone);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Checks the query and cuts its range into buckets; 400 for a bad zone, date or order, or too many points. */
export function bucketRange(query: RangeQuery, nowMs: number): BucketedRange {
  const { interval, timezone } = query;
  if (!isTimeZone(timezone)) throw invalid('timezone', 'must be a time zone of the IANA database, such as Europe/Paris or UTC');
  const to = query.to === undefined ? nowMs : parseMoment(query.to, 'to', timezone);
  const from = query.from === undefined ? to - DEFAULT_SPAN_MS[interval] : parseMoment(query.from, 'from', timezone);
  if (from >= to) throw invalid('from', 'must be before to');
  const tooMany = () =>
    new BadRequest(`The range from ${iso(from)} to ${iso(to)} by ${interval} has more than ${MAX_POINTS} points: choose a longer interval or a shorter range`, [
      { pointer: '/query/interval', message: `gives more than ${MAX_POINTS} points over the range` },
    ]);
  if ((to - from) / SHORTEST_MS[interval] > MAX_POINTS + 1) throw tooMany();

  const buckets: Bucket[] = [];
  for (let start = bucketStartOf(from, interval, timezone); start < to; ) {
    if (buckets.length === MAX_POINTS) throw tooMany();
    const next = nextBucketStart(start, interval, timezone);
    if (next <= start) throw new Error(`No ${interval} follows ${iso(start)} in ${timezone}`);
    buckets.push({ start: iso(start), from: iso(Math.max(start, from)), to: iso(Math.min(next, to)) });
    start = next;
  }
  return { interval, timezone, from: iso(from), to: iso(to), buckets };
}

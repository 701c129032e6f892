// Cutting a range into the hours, days, weeks and months of a time zone's clock: days of 23 and 25
// hours where clocks change, half-hour zones, weeks from Monday, months of every length, and the
// ranges refused.
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { bucketRange, MAX_POINTS, type RangeQuery } from '../src/modules/analytics/time-buckets.js';

const NOW = Date.parse('2026-11-23T12:34:56.789Z');
const cut = (query: RangeQuery) => bucketRange(query, NOW);
const hoursOf = (bucket: { from: string; to: string }) => (Date.parse(bucket.to) - Date.parse(bucket.from)) / 3_600_000;
const local = (iso: string, timeZone: string) => new Date(iso).toLocaleString('sv-SE', { timeZone });

function refusal(query: RangeQuery): { message: string; pointer: string | undefined } {
  try {
    cut(query);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return { message: (error as AppError).message, pointer: (error as AppError).details[0]?.pointer };
  }
  throw new Error('no refusal');
}

describe('time buckets', () => {
  it('gives the day clocks go forward 23 hours, and the day they go back 25, in Europe/Paris', () => {
    const spring = cut({ from: '2026-03-28', to: '2026-03-30', interval: 'day', timezone: 'Europe/Paris' });
    expect(spring.buckets.map((b) => b.start)).toEqual(['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(spring.buckets.map(hoursOf)).toEqual([24, 23, 24]);
    const autumn = cut({ from: '2026-10-25', to: '2026-10-25', interval: 'day', timezone: 'Europe/Paris' });
    expect(autumn.buckets.map(hoursOf)).toEqual([25]);
  });

  it('skips the hour that does not exist and counts the hour that happens twice', () => {
    const spring = cut({ from: '2026-03-29T00:00', to: '2026-03-29T05:00', interval: 'hour', timezone: 'Europe/Paris' });
    expect(spring.buckets.map((b) => local(b.start, 'Europe/Paris'))).toEqual(['2026-03-29 00:00:00', '2026-03-29 01:00:00', '2026-03-29 03:00:00', '2026-03-29 04:00:00']);
    const autumn = cut({ from: '2026-10-25', to: '2026-10-25', interval: 'hour', timezone: 'Europe/Paris' });
    expect(autumn.buckets).toHaveLength(25);
    expect(autumn.buckets.filter((b) => local(b.start, 'Europe/Paris') === '2026-10-25 02:00:00')).toHaveLength(2);
    expect(autumn.buckets.every((b) => hoursOf(b) === 1)).toBe(true);
  });

  it('follows zones a part of an hour from UTC, and clocks that move by half an hour', () => {
    const kathmandu = cut({ from: '2026-11-23T00:00', to: '2026-11-23T03:00', interval: 'hour', timezone: 'Asia/Kathmandu' });
    expect(kathmandu.buckets.map((b) => b.start)).toEqual(['2026-11-22T18:15:00.000Z', '2026-11-22T19:15:00.000Z', '2026-11-22T20:15:00.000Z']);
    const lordHowe = cut({ from: '2026-10-04T00:00', to: '2026-10-04T04:00', interval: 'hour', timezone: 'Australia/Lord_Howe' });
    expect(lordHowe.buckets.map((b) => local(b.start, 'Australia/Lord_Howe'))).toEqual([
      '2026-10-04 00:00:00',
      '2026-10-04 01:00:00',
      '2026-10-04 02:30:00',
      '2026-10-04 03:00:00',
    ]);
    expect(lordHowe.buckets.map(hoursOf)).toEqual([1, 1, 0.5, 1]);
  });

  it('starts weeks on Monday and months on the first, the first point reaching back before the range', () => {
    const weeks = cut({ from: '2026-11-04', to: '2026-11-18', interval: 'week', timezone: 'Asia/Kolkata' });
    expect(weeks.buckets.map((b) => local(b.start, 'Asia/Kolkata'))).toEqual(['2026-11-02 00:00:00', '2026-11-09 00:00:00', '2026-11-16 00:00:00']);
    expect(weeks.buckets[0]!.from).toBe(weeks.from);
    expect(weeks.buckets.at(-1)!.to).toBe(weeks.to);
    const months = cut({ from: '2024-01-31', to: '2024-03-01', interval: 'month', timezone: 'America/New_York' });
    expect(months.buckets.map((b) => local(b.start, 'America/New_York'))).toEqual(['2024-01-01 00:00:00', '2024-02-01 00:00:00', '2024-03-01 00:00:00']);
    expect(months.buckets.map(hoursOf)).toEqual([24, 29 * 24, 24]);
  });

  it('reads dates and times on the zone’s clock unless they carry an offset', () => {
    expect(cut({ from: '2026-11-23', to: '2026-11-23', interval: 'day', timezone: 'Asia/Tokyo' })).toMatchObject({ from: '2026-11-22T15:00:00.000Z', to: '2026-11-23T15:00:00.000Z' });
    expect(cut({ from: '2026-11-23T09:30', to: '2026-11-23T10:00:00.5+01:00', interval: 'hour', timezone: 'Asia/Tokyo' })).toMatchObject({
      from: '2026-11-23T00:30:00.000Z',
      to: '2026-11-23T09:00:00.500Z',
    });
  });

  it('answers the span before now when the range is left out', () => {
    expect(cut({ interval: 'day', timezone: 'UTC' })).toMatchObject({ from: '2026-10-24T12:34:56.789Z', to: '2026-11-23T12:34:56.789Z' });
    const hours = cut({ interval: 'hour', timezone: 'UTC' });
    expect(hours.buckets).toHaveLength(25);
    expect(hours.buckets[0]).toEqual({ start: '2026-11-22T12:00:00.000Z', from: '2026-11-22T12:34:56.789Z', to: '2026-11-22T13:00:00.000Z' });
  });

  it('cuts the range exactly: each point’s part follows the one before, from `from` to `to`', () => {
    const range = cut({ from: '2026-01-01T07:13:00Z', to: '2026-06-30T22:01:00Z', interval: 'day', timezone: 'America/Los_Angeles' });
    expect(range.buckets[0]!.from).toBe(range.from);
    for (let i = 1; i < range.buckets.length; i++) expect(range.buckets[i]!.from).toBe(range.buckets[i - 1]!.to);
    expect(range.buckets.at(-1)!.to).toBe(range.to);
  });

  it('refuses absurd ranges, bad moments and names that are not IANA time zones, saying which', () => {
    expect(refusal({ from: '2016-01-01', to: '2026-01-01', interval: 'hour', timezone: 'UTC' })).toEqual({
      message: expect.stringContaining(`more than ${MAX_POINTS} points`),
      pointer: '/query/interval',
    });
    expect(cut({ from: '2026-01-01', to: '2026-04-14', interval: 'hour', timezone: 'UTC' }).buckets).toHaveLength(2496);
    expect(refusal({ from: '2026-01-02', to: '2026-01-01', interval: 'day', timezone: 'UTC' })).toEqual({ message: 'from must be before to', pointer: '/query/from' });
    expect(refusal({ from: '2026-01-01T10:00Z', to: '2026-01-01T10:00Z', interval: 'hour', timezone: 'UTC' }).pointer).toBe('/query/from');
    for (const timezone of ['+01:00', 'Mars/Olympus_Mons', 'Europe/Paris; drop table', '', 'UTC+1']) {
      expect(refusal({ interval: 'day', timezone }).pointer).toBe('/query/timezone');
    }
    for (const from of ['2026-02-30', '2026-13-01', 'yesterday', '2026-01-01T25:00', '1969-12-31', '2026-01-01T10:00+24:00']) {
      expect(refusal({ from, interval: 'day', timezone: 'UTC' }).pointer).toBe('/query/from');
    }
    expect(refusal({ to: '12026-01-01', interval: 'month', timezone: 'UTC' }).pointer).toBe('/query/to');
  });
});

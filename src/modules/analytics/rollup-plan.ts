// Which rollup rows answer a list of spans (the buckets of a range, in order and apart), so that each
// span reads as few rows as its figures need, exactly:
//  - what is not whole UTC hours (the range's own ends; buckets of a zone a part of an hour from UTC)
//    is counted from the events;
//  - a span of a day or more reads the UTC days nearest its ends from the daily rollups, and corrects
//    each end with the hours between it and that midnight, added or taken away (every figure is a
//    count or a sum, so taking an hour's sums away is exact). A day of Europe/Paris, 23:00 to 23:00
//    UTC, is one daily row plus the hour before its first midnight, minus the hour before its last:
//    three rows, not twenty-four. A UTC day is one row;
//  - a shorter span (an hour, or a few) reads its hours.
import type { TimeSpan } from '../../db/dialect.js';
import { cutAtHours } from './hour-spans.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export interface HourUse {
  position: number;
  sign: 1 | -1;
}

export interface RollupPlan {
  /** Parts counted from the events, each with the position of its span. */
  edges: { span: TimeSpan; position: number }[];
  /** UTC midnights (ms) read from the daily rollups → the position of the span they count for. */
  days: Map<number, number>;
  /** Hours (ms) read from the hourly rollups → the spans they are added to or taken from. */
  hours: Map<number, HourUse[]>;
}

export function planRollupReads(spans: TimeSpan[]): RollupPlan {
  const plan: RollupPlan = { edges: [], days: new Map(), hours: new Map() };
  const useHours = (from: number, to: number, position: number, sign: 1 | -1) => {
    for (let hour = from; hour < to; hour += HOUR_MS) {
      const uses = plan.hours.get(hour);
      if (uses) uses.push({ position, sign });
      else plan.hours.set(hour, [{ position, sign }]);
    }
  };
  spans.forEach((span, position) => {
    const cut = cutAtHours(span);
    for (const edge of cut.edges) plan.edges.push({ span: edge, position });
    if (!cut.hours) return;
    const from = Date.parse(cut.hours.from);
    const to = Date.parse(cut.hours.to);
    const firstDay = Math.round(from / DAY_MS) * DAY_MS;
    const endDay = Math.round(to / DAY_MS) * DAY_MS;
    if (firstDay >= endDay) {
      useHours(from, to, position, 1);
      return;
    }
    for (let day = firstDay; day < endDay; day += DAY_MS) plan.days.set(day, position);
    // The hours between each end and its midnight: added when the span reaches past the midnight, taken away when it stops short.
    if (from < firstDay) useHours(from, firstDay, position, 1);
    else useHours(firstDay, from, position, -1);
    if (endDay < to) useHours(endDay, to, position, 1);
    else useHours(to, endDay, position, -1);
  });
  return plan;
}

/** The whole UTC days inside a span, and the hours before and after them (for a single span, such as a ranking's range). */
export function cutAtDays(hours: TimeSpan): { days: TimeSpan | null; hours: TimeSpan[] } {
  const from = Date.parse(hours.from);
  const to = Date.parse(hours.to);
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const endDay = Math.floor(to / DAY_MS) * DAY_MS;
  if (firstDay >= endDay) return { days: null, hours: [hours] };
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    days: { from: iso(firstDay), to: iso(endDay) },
    hours: [
      ...(from < firstDay ? [{ from: hours.from, to: iso(firstDay) }] : []),
      ...(endDay < to ? [{ from: iso(endDay), to: hours.to }] : []),
    ],
  };
}

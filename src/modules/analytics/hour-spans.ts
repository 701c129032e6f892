// A span cut where the hourly rollups can answer it: the whole UTC hours inside it, read from the
// rollups, and what is left at either end, read from the events. Where the span starts and ends on
// the hour (every bucket of a zone whole hours from UTC, but the range's own ends), nothing is left.
import type { TimeSpan } from '../../db/dialect.js';

const HOUR_MS = 3_600_000;

export interface HourCut {
  /** Whole hours, or null when the span holds none. */
  hours: TimeSpan | null;
  /** The parts before and after the whole hours (the whole span when it holds none); empty ones left out. */
  edges: TimeSpan[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export function cutAtHours(span: TimeSpan): HourCut {
  const from = Date.parse(span.from);
  const to = Date.parse(span.to);
  const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (firstHour >= lastHour) return { hours: null, edges: from < to ? [span] : [] };
  const edges: TimeSpan[] = [];
  if (from < firstHour) edges.push({ from: span.from, to: iso(firstHour) });
  if (lastHour < to) edges.push({ from: iso(lastHour), to: span.to });
  return { hours: { from: iso(firstHour), to: iso(lastHour) }, edges };
}

// How the analytics figures are written for a person: counts, money, a point's start on the time
// zone's clock, and what each chart shows of its route's answer.
import type { Interval } from './analyticsParams';
import type { SeriesRoute } from './analyticsQueries';

const counts = new Intl.NumberFormat('en-GB');
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const formatCount = (value: number) => counts.format(value);
export const formatUsd = (value: number) => dollars.format(value);

const POINT_FORMATS: Record<Interval, Intl.DateTimeFormatOptions> = {
  hour: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  day: { day: 'numeric', month: 'short', year: 'numeric' },
  week: { day: 'numeric', month: 'short', year: 'numeric' },
  month: { month: 'short', year: 'numeric' },
};

/** A point's start as a person reads it ("28 Nov 2026", "week of 23 Nov 2026"). */
export function pointLabel(start: string, interval: Interval, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', { ...POINT_FORMATS[interval], timeZone }).format(new Date(start));
  return interval === 'week' ? `week of ${text}` : text;
}

/** A point's start, short enough for an axis. */
export function axisLabel(start: string, interval: Interval, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = interval === 'hour' ? { hour: '2-digit', minute: '2-digit' } : interval === 'month' ? { month: 'short', year: '2-digit' } : { day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat('en-GB', { ...options, timeZone }).format(new Date(start));
}

export interface Figure {
  /** The field of the route's points. */
  key: string;
  label: string;
  color: string;
}

export interface ChartSpec {
  route: SeriesRoute;
  title: string;
  /** What one unit is, for the totals line ("queries"); empty where the figure says it ($). */
  unit: string;
  kind: 'bars' | 'lines';
  figures: Figure[];
  /** The figure whose total heads the chart. */
  headline: string;
  format: (value: number) => string;
}

// Colours with at least 3:1 contrast on white, told apart by more than hue where stacked (legend and table).
const BLUE = '#3346c9';
const GREEN = '#1d6b3a';
const RED = '#b3261e';
const AMBER = '#8a5a00';
const TEAL = '#0b7285';
const PURPLE = '#6b3fa0';
const GREY = '#5a6272';

export const CHARTS: ChartSpec[] = [
  {
    route: 'query-count',
    title: 'Queries',
    unit: 'queries',
    kind: 'bars',
    headline: 'queries',
    format: formatCount,
    figures: [
      { key: 'completed', label: 'Answered', color: GREEN },
      { key: 'blocked', label: 'Blocked by a guardrail', color: AMBER },
      { key: 'failed', label: 'Failed', color: RED },
    ],
  },
  {
    route: 'tokens',
    title: 'Tokens',
    unit: 'tokens',
    kind: 'lines',
    headline: 'total_tokens',
    format: formatCount,
    figures: [
      { key: 'prompt_tokens', label: 'Prompt', color: BLUE },
      { key: 'completion_tokens', label: 'Completion', color: TEAL },
    ],
  },
  {
    route: 'cost',
    title: 'Cost',
    unit: '',
    kind: 'bars',
    headline: 'cost',
    format: formatUsd,
    figures: [
      { key: 'answer_cost', label: 'Answers', color: BLUE },
      { key: 'judge_cost', label: 'Judges', color: PURPLE },
      { key: 'embedding_cost', label: 'Embeddings', color: TEAL },
    ],
  },
  {
    route: 'votes',
    title: 'Votes',
    unit: 'votes',
    kind: 'bars',
    headline: 'up',
    format: formatCount,
    figures: [
      { key: 'up', label: 'Up', color: GREEN },
      { key: 'down', label: 'Down', color: RED },
    ],
  },
  {
    route: 'document-count',
    title: 'Documents added',
    unit: 'documents',
    kind: 'bars',
    headline: 'documents',
    format: formatCount,
    figures: [
      { key: 'indexed', label: 'Indexed', color: GREEN },
      { key: 'queued', label: 'Waiting', color: GREY },
      { key: 'extracting', label: 'Extracting', color: AMBER },
      { key: 'chunking', label: 'Chunking', color: PURPLE },
      { key: 'embedding', label: 'Embedding', color: TEAL },
      { key: 'failed', label: 'Failed', color: RED },
    ],
  },
  {
    route: 'indexing-mode',
    title: 'Indexing',
    unit: 'documents indexed',
    kind: 'bars',
    headline: 'documents_full_text',
    format: formatCount,
    figures: [
      { key: 'documents_full_text', label: 'Full text', color: BLUE },
      { key: 'documents_vector', label: 'Vector', color: TEAL },
      { key: 'documents_hybrid', label: 'Hybrid', color: PURPLE },
    ],
  },
];

/** The chart's headline total: the figure named, or for indexing the three modes together. */
export function headlineTotal(spec: ChartSpec, totals: Record<string, number>): number {
  if (spec.route === 'indexing-mode') return spec.figures.reduce((sum, figure) => sum + (totals[figure.key] ?? 0), 0);
  if (spec.route === 'votes') return (totals.up ?? 0) + (totals.down ?? 0);
  return totals[spec.headline] ?? 0;
}

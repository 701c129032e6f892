// The table of the speed aims (round 3): each suite that measures one of its rows hands the row back in
// its SuiteReport (`speedRows`), and run.ts prints every row of the run in one summary at the end,
// in the table's order, with its aim and whether it is met. A new suite contributes rows by filling
// `speedRows` (with judgedRow and the figure names below); run.ts needs only to list the suite.
import { fixed, formatTable, isAimMet, type Aim, type SpeedRow } from './report.js';

/** The rows' figures, worded as in the table, in its order; the summary sorts by this order. */
export const SPEED_FIGURES = {
  answerOverhead: 'answer overhead over the model, non-streamed, agent without corpus',
  answerOverheadCorpus: 'answer overhead over the model, non-streamed, agent with a 200-document corpus',
  firstToken: 'time to first streamed token, overhead over the model’s, agent without corpus',
  firstTokenCorpus: 'time to first streamed token, overhead over the model’s, agent with a 200-document corpus',
  cpuPerAnswer: 'server CPU per answer (non-streamed, 8 clients)',
  answersPerSecond: 'answers a second, 8 clients',
  start: 'start to ready (fresh data folder, dist up to date)',
  idleMemory: 'idle memory 15 s after ready',
  listing: '200-document listing, session token',
  listingUnchanged: '200-document listing, session token, unchanged (If-None-Match → 304)',
  manualSearch: 'search through HTTP, 40 questions, 1,169-page HTML manual, limit 30, p95',
  manualUpload: 'that manual (18 MB of HTML) uploaded in batches of 20 to all indexed, embedded default',
} as const;

const FIGURE_ORDER: string[] = Object.values(SPEED_FIGURES);

export interface Judged {
  value: number;
  comparison: Aim['comparison'];
  target: number;
  /** Printed after the value and the target, e.g. "ms", "MiB", "answers/s". */
  unit: string;
  /** Decimals of the value printed. */
  digits: number;
  /** The same measurement against a bare Fastify route, in the same unit. */
  bare?: number;
  /** The aim in words when it says more than the comparison (e.g. "a third of Flowise's"); the comparison follows it. */
  aimText?: string;
}

const withUnit = (text: string, unit: string) => (unit === '' || text === 'n/a' ? text : `${text} ${unit}`);

/** A row whose aim is a number to stay under or reach; not judged when the value is not a number. */
export function judgedRow(figure: string, judged: Judged): SpeedRow {
  const aim: Aim = { label: figure, value: judged.value, comparison: judged.comparison, target: judged.target };
  const comparison = withUnit(`${judged.comparison} ${judged.target}`, judged.unit);
  return {
    figure,
    value: withUnit(fixed(judged.value, judged.digits), judged.unit),
    ...(judged.bare === undefined ? {} : { bare: withUnit(fixed(judged.bare, judged.digits), judged.unit) }),
    aim: judged.aimText === undefined ? comparison : `${judged.aimText} (${comparison})`,
    met: Number.isFinite(judged.value) ? isAimMet(aim) : undefined,
  };
}

const orderOf = (figure: string) => {
  const index = FIGURE_ORDER.indexOf(figure);
  return index < 0 ? FIGURE_ORDER.length : index;
};

/** A few missing rows are named (a suite left out of a full run shows); most missing, a one-suite run, only counted. */
const LISTED_MISSING_AT_MOST = 4;

function notMeasured(missing: string[]): string[] {
  if (missing.length === 0) return [];
  if (missing.length > LISTED_MISSING_AT_MOST) return [`${missing.length} of the table's ${FIGURE_ORDER.length} rows not measured in this run`];
  return ['not measured in this run:', ...missing.map((figure) => `  - ${figure}`)];
}

const verdictOf = (met: boolean | undefined) => (met === undefined ? 'n/a' : met ? 'met' : 'NOT met');

/**
 * The summary: every row in the table's order (rows of figures it does not name last, in the order
 * given), then how many aims are met and which of the speed aims' figures this run did not measure.
 */
export function formatSpeedSummary(rows: SpeedRow[], loadAverage: number): string {
  const sorted = rows.map((row, given) => ({ row, given })).sort((a, b) => orderOf(a.row.figure) - orderOf(b.row.figure) || a.given - b.given);
  const measured = new Set(rows.map((row) => row.figure));
  const missing = FIGURE_ORDER.filter((figure) => !measured.has(figure));
  const judged = rows.filter((row) => row.met !== undefined);
  return [
    `== The speed aims (load average ${loadAverage})`,
    formatTable(
      ['figure', 'ours', 'bare Fastify', 'aim', 'met?'],
      sorted.map(({ row }) => [row.figure, row.value, row.bare ?? '–', row.aim, verdictOf(row.met)]),
      [0, 3, 4],
    ),
    `aims met: ${judged.filter((row) => row.met).length} of ${judged.length}`,
    ...notMeasured(missing),
  ].join('\n');
}

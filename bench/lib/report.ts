// What a suite hands back, and how it is printed: one table of load results, then each aim with
// its measured value and whether it is met. Aims are goals, not assertions: an unmet aim is
// reported, it does not fail the run.
import type { LoadResult } from './load.js';

export interface Aim {
  /** What is compared, e.g. "authenticated GET rps / bare rps". */
  label: string;
  value: number;
  /** How the value is judged, e.g. ">= 0.5". */
  comparison: '>=' | '<=' | '<';
  target: number;
  unit?: string;
}

/** A table of figures that are not load results (times of single requests, memory, rates…). */
export interface ReportTable {
  /** A line printed above the table. */
  title?: string;
  header: string[];
  rows: string[][];
}

/**
 * One row of the table of the speed aims (bench/lib/speed-aims.ts): a suite that measures a
 * row hands it back here, and run.ts gathers the rows of every suite into the summary at the end.
 */
export interface SpeedRow {
  /** The row's figure, as the table names it (SPEED_FIGURES). */
  figure: string;
  /** Our figure, with its unit, e.g. "2.41 ms". */
  value: string;
  /** The same request pattern against a bare Fastify route, with its unit; absent where it means nothing. */
  bare?: string;
  /** The aim, in words, e.g. "< 3 ms". */
  aim: string;
  /** Whether the aim is met; undefined when it could not be judged (e.g. nothing measured). */
  met: boolean | undefined;
}

export interface SuiteReport {
  title: string;
  /** Printed first, as the load table; may be empty. */
  results: LoadResult[];
  /** Printed after the load table, in order. */
  tables?: ReportTable[];
  aims: Aim[];
  notes: string[];
  /** The suite's rows of the speed aims' table, if any: printed again in the summary at the end of the run. */
  speedRows?: SpeedRow[];
}

export function isAimMet(aim: Aim): boolean {
  if (aim.comparison === '>=') return aim.value >= aim.target;
  return aim.comparison === '<=' ? aim.value <= aim.target : aim.value < aim.target;
}

/** Columns of words rather than figures (`leftAligned`, the first by default) are left-aligned, figures right-aligned. */
export function formatTable(header: string[], rows: string[][], leftAligned: number[] = [0]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (leftAligned.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function formatLoadTable(results: LoadResult[]): string {
  return formatTable(
    ['target', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'responses', 'non-200', 'errors'],
    results.map((result) => [
      result.name,
      fixed(result.requestsPerSecond, 0),
      fixed(result.p50Ms, 2),
      fixed(result.p99Ms, 2),
      fixed(result.serverCpuMicrosPerRequest, 0),
      String(result.responses),
      String(result.non200Count),
      String(result.failures),
    ]),
  );
}

export function formatAims(aims: Aim[]): string {
  return aims
    .map((aim) => {
      const unit = aim.unit ?? '';
      const verdict = isAimMet(aim) ? 'met' : 'NOT met';
      return `${aim.label}: ${fixed(aim.value, 2)}${unit} (aim ${aim.comparison} ${aim.target}${unit}) -> ${verdict}`;
    })
    .join('\n');
}

/** Status breakdown of every target that had non-200 responses, to explain the table's column. */
export function formatNon200(results: LoadResult[]): string[] {
  return results
    .filter((result) => result.non200Count > 0)
    .map((result) => `${result.name}: non-200 responses ${Object.entries(result.non200).map(([status, count]) => `${status} x${count}`).join(', ')}`);
}

export function formatReport(report: SuiteReport): string {
  const tables = (report.tables ?? []).flatMap((table) => [...(table.title === undefined ? [] : [table.title]), formatTable(table.header, table.rows), '']);
  return [
    `== ${report.title}`,
    ...(report.results.length > 0 ? [formatLoadTable(report.results), ''] : []),
    ...tables,
    formatAims(report.aims),
    ...formatNon200(report.results),
    ...report.notes,
  ].join('\n');
}

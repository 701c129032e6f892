// The figures behind a chart as a CSV file made in the browser from the route's own answer: RFC 4180
// (a header row, CRLF, cells quoted where needed), a text cell that a spreadsheet would run as a
// formula (=, +, -, @, tab, carriage return) prefixed with an apostrophe, as the chat logs' export does.
import { todayIn } from './analyticsParams';

type Cell = string | number | null | undefined;

function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvText(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** Saves the text as a file of that name, as a download of the browser. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; it may go once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * "query-count-agent-12-2026-11-01-to-2026-11-30-by-day.csv": the route, the scope, the days covered
 * on the time zone's clock (the answer's `to` excluded) and the length of a point.
 */
export function csvFileName(route: string, answer: { scope: string; scope_id: number | null; from: string; to: string; timezone: string; interval: string }): string {
  const scope = answer.scope_id === null ? answer.scope : `${answer.scope}-${answer.scope_id}`;
  const first = todayIn(answer.timezone, new Date(answer.from));
  const last = todayIn(answer.timezone, new Date(new Date(answer.to).getTime() - 1));
  return `${route}-${scope}-${first}-to-${last}-by-${answer.interval}.csv`;
}

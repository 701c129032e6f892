// What a chosen file holds, read in the browser before it is sent, to show what will be sent: the
// rows of a CSV (papaparse, with the server's options: the delimiter guessed among , ; and tab, blank
// lines skipped, a byte-order mark dropped) each with the line it starts on, as the server numbers
// lines in its report; or the queries of a JSON file (an array, or { "queries": [...] }). The server
// checks every rule and says what it refuses; this only reads.
import Papa from 'papaparse';

/** A query of a JSON file, as POST /api/v2/datasets/{id}/queries takes it (no import: the server's tests read this file too). */
export interface NewQuery {
  question: string;
  expected_answer?: string | null;
  expected_sources?: (number | string)[];
  tags?: string[];
}

export interface PreviewRow {
  /** The file's line the row starts on (CSV), or the item's number from 1 (JSON). */
  position: number;
  question: string;
  expected_answer: string;
  expected_sources: string;
  tags: string;
}

export type ReadFile =
  | { format: 'csv'; text: string; columns: string[]; rows: PreviewRow[] }
  | { format: 'json'; queries: NewQuery[]; rows: PreviewRow[] }
  | { format: 'unreadable'; reason: string };

/** The line (from 1) that `position` is on, past blank lines, counted forward from the last call. */
function lineCounter(text: string) {
  let line = 1;
  let at = 0;
  return (position: number) => {
    for (; at < position; at++) if (text.charCodeAt(at) === 10) line++;
    let blankEnd = /^[ \t\r]*\n/.exec(text.slice(at, at + 1000));
    while (blankEnd !== null) {
      at += blankEnd[0].length;
      line++;
      blankEnd = /^[ \t\r]*\n/.exec(text.slice(at, at + 1000));
    }
    return line;
  };
}

export function readCsv(raw: string): ReadFile {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const lineAt = lineCounter(text);
  let columns: string[] | undefined;
  const rows: PreviewRow[] = [];
  let start = 0;
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
    step: (row) => {
      const position = lineAt(start);
      start = row.meta.cursor;
      if (columns === undefined) {
        columns = row.data.map((name) => name.trim().toLowerCase());
        return;
      }
      const cell = (name: string) => {
        const index = columns!.indexOf(name);
        return index === -1 ? '' : (row.data[index] ?? '').trim();
      };
      rows.push({ position, question: cell('question'), expected_answer: cell('expected_answer'), expected_sources: cell('expected_sources'), tags: cell('tags') });
    },
  });
  if (columns === undefined) return { format: 'unreadable', reason: 'The file is empty: a CSV needs a header line and a row.' };
  return { format: 'csv', text: raw, columns, rows };
}

const isQuery = (value: unknown): value is NewQuery => typeof value === 'object' && value !== null && typeof (value as { question?: unknown }).question === 'string';

export function readJson(text: string): ReadFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { format: 'unreadable', reason: `The file is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const list = Array.isArray(parsed) ? parsed : typeof parsed === 'object' && parsed !== null ? (parsed as { queries?: unknown }).queries : undefined;
  if (!Array.isArray(list)) return { format: 'unreadable', reason: 'A JSON file holds an array of queries, or an object with a "queries" array.' };
  const queries = list.filter(isQuery);
  if (queries.length !== list.length) return { format: 'unreadable', reason: 'Every query of a JSON file is an object with a "question" text.' };
  const rows = queries.map((query, index) => ({
    position: index + 1,
    question: query.question,
    expected_answer: query.expected_answer ?? '',
    expected_sources: (query.expected_sources ?? []).join(' | '),
    tags: (query.tags ?? []).join(', '),
  }));
  return { format: 'json', queries, rows };
}

export function readQueriesFile(name: string, text: string): ReadFile {
  if (/\.json$/i.test(name)) return readJson(text);
  if (/\.(csv|tsv|txt)$/i.test(name)) return readCsv(text);
  return { format: 'unreadable', reason: `${name} is neither a CSV nor a JSON file.` };
}

/**
 * Where a problem the server reported is: the CSV line (/body/csv/line/N) or the JSON item
 * (/body/queries/I/…, I from 0), as the preview numbers its rows; undefined for the whole file.
 */
export function positionOfProblem(pointer: string): number | undefined {
  const line = /^\/body\/csv\/line\/(\d+)/.exec(pointer);
  if (line) return Number(line[1]);
  const item = /^\/body\/queries\/(\d+)/.exec(pointer);
  return item ? Number(item[1]) + 1 : undefined;
}

// CSV (comma, semicolon, tab or pipe, as papaparse guesses): the first row is the header, and every
// other row becomes a line that names its columns ("City: Paris; Country: France"), so that any run
// of lines a chunk takes can be read without the header row.
import Papa from 'papaparse';
import { formatRecord, type BlockList } from '../block-list.js';

function* recordLines(headers: readonly string[], rows: readonly string[][]): Generator<string> {
  for (const row of rows) yield formatRecord(headers, row);
}

export function extractCsv(text: string, out: BlockList): { title: undefined } {
  const parsed = Papa.parse<string[]>(text, { delimitersToGuess: [',', ';', '\t', '|'], skipEmptyLines: 'greedy' });
  const [headers, ...rows] = parsed.data;
  if (headers === undefined) return { title: undefined };
  if (rows.length === 0) out.add('table', headers.join('; '));
  else out.addLines('table', recordLines(headers, rows));
  return { title: undefined };
}

// CSV (comma, semicolon, tab or pipe, as papaparse guesses): the first row is the header, and every
// other row becomes a line that names its columns ("City: Paris; Country: France"), so that any run
// of lines a chunk takes can be read without the header row. Rows are taken one at a time as the
// parser reads them; only the lines made of them are kept.
import Papa from 'papaparse';
import { formatRecord, type BlockList } from '../block-list.js';

export function extractCsv(text: string, out: BlockList): { title: undefined } {
  let headers: string[] | undefined;
  let rows = 0;
  let failure: unknown;
  const block = out.lineBlock('table');
  Papa.parse<string[]>(text, {
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
    step(result, parser) {
      try {
        if (headers === undefined) headers = result.data;
        else block.addLine(formatRecord(headers, result.data));
        rows++;
      } catch (error) {
        failure = error;
        parser.abort();
      }
    },
  });
  if (failure !== undefined) throw failure;
  // A header alone is still text worth keeping.
  if (rows === 1 && headers !== undefined) block.addLine(headers.join('; '));
  block.end();
  return { title: undefined };
}

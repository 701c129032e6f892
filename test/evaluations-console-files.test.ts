// What the console reads from a file of queries before sending it
// (console/src/pages/evaluations/datasets/read-queries-file.ts): each CSV row with the line it starts
// on, numbered as the server numbers the lines of its refusals; the queries of a JSON file.
import { describe, expect, it } from 'vitest';
import { positionOfProblem, readQueriesFile } from '../console/src/pages/evaluations/datasets/read-queries-file.js';
import { parseQueriesCsv } from '../src/modules/evaluations/query-import.js';

const rowsOf = (name: string, text: string) => {
  const read = readQueriesFile(name, text);
  if (read.format === 'unreadable') throw new Error(read.reason);
  return read.rows;
};

/** The lines the server names for this CSV's problems. */
function refusedLines(csv: string): number[] {
  try {
    parseQueriesCsv(csv, 100);
    return [];
  } catch (error) {
    return (error as { details: { pointer: string }[] }).details.map((detail) => positionOfProblem(detail.pointer)!);
  }
}

describe('a file of queries read in the browser', () => {
  it('numbers each CSV row by the line it starts on, as the server does (blank lines, quoted line breaks, a byte-order mark)', () => {
    const csv = '\ufeffQuestion;Expected_Answer\n\nFirst?;one\n"Second,\nover two lines?";two\n\n;no question\nFourth?;four\n';
    const rows = rowsOf('queries.csv', csv);
    expect(rows.map((row) => [row.position, row.question])).toEqual([
      [3, 'First?'],
      [4, 'Second,\nover two lines?'],
      [7, ''],
      [8, 'Fourth?'],
    ]);
    expect(refusedLines(csv)).toEqual([7]);
  });

  it('reads a JSON array or { queries }, numbering its items from 1 as the server’s pointers do from 0', () => {
    const queries = [{ question: 'A?', expected_answer: 'a', expected_sources: [3, 'b.md'], tags: ['x'] }, { question: 'B?' }];
    expect(rowsOf('q.json', JSON.stringify(queries))).toEqual([
      { position: 1, question: 'A?', expected_answer: 'a', expected_sources: '3 | b.md', tags: 'x' },
      { position: 2, question: 'B?', expected_answer: '', expected_sources: '', tags: '' },
    ]);
    expect(rowsOf('q.json', JSON.stringify({ queries })).length).toBe(2);
    expect(positionOfProblem('/body/queries/1/question')).toBe(2);
  });

  it('says what it cannot read', () => {
    expect(readQueriesFile('q.json', '{ nope')).toMatchObject({ format: 'unreadable' });
    expect(readQueriesFile('q.json', '[{ "answer": "no question" }]')).toMatchObject({ format: 'unreadable' });
    expect(readQueriesFile('q.csv', '')).toMatchObject({ format: 'unreadable' });
    expect(readQueriesFile('q.pdf', 'x')).toMatchObject({ format: 'unreadable', reason: 'q.pdf is neither a CSV nor a JSON file.' });
  });
});

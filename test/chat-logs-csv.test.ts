// Formula injection in the chat-log CSV (OWASP's CSV injection guidance): a cell that a spreadsheet
// could start as a formula, at its first character or after leading separators and spaces (which a
// spreadsheet of a `;` locale splits at), gets an apostrophe and is quoted.
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '../src/modules/chat/chat-logs.csv.js';

describe('chat-log CSV cells', () => {
  it.each([
    ['=1+1', `"'=1+1"`],
    ['+1', `"'+1"`],
    ['-3', `"'-3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tTabbed', `"'\tTabbed"`],
    ['\rReturn', `"'\rReturn"`],
    [';=cmd|"/c calc"!A1', `"';=cmd|""/c calc""!A1"`],
    [',=HYPERLINK("http://evil.example")', `"',=HYPERLINK(""http://evil.example"")"`],
    [' ; =1+1', `"' ; =1+1"`],
    [';;@SUM(A1)', `"';;@SUM(A1)"`],
  ])('neutralises and quotes %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('quotes a cell holding a separator of either kind, so that no spreadsheet splits it', () => {
    expect(csvCell('one;=two')).toBe('"one;=two"');
    expect(csvCell('one, two')).toBe('"one, two"');
  });

  it('leaves plain text, numbers and empty cells as they are', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a-b=c')).toBe('a-b=c');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvRow(['a', ';=1', 2])).toBe(`a,"';=1",2\r\n`);
  });
});

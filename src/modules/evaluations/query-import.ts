// Queries added to a dataset from a CSV text: parsed with papaparse (quoted fields, quotes doubled
// inside them, line breaks inside quotes), checked row by row, every problem reported with the line
// of the file it is on (1 is the header). Cells are text and stay text: one that looks like a
// spreadsheet formula (=, +, -, @ first) is kept as written and never evaluated here.
import type Papa from 'papaparse';
import { requiredAtFirstUse } from '../../required-at-first-use.js';
import { BadRequest, type ErrorDetail } from '../../errors.js';
import type { ExpectedSource } from '../../evaluation/index.js';
import type { NewQuery } from './datasets.repo.js';
import { MAX_QUESTION_CHARACTERS, MAX_SOURCES, MAX_TAGS } from './datasets.schemas.js';

/** papaparse, required at the first text parsed (a start does not load it). */
const papa = requiredAtFirstUse<typeof Papa>('papaparse');

export const CSV_COLUMNS = ['question', 'expected_answer', 'expected_sources', 'tags'] as const;
type Column = (typeof CSV_COLUMNS)[number];

/** Problems reported at most: enough to fix a file, not a 1,000,000-line answer. */
const MAX_PROBLEMS = 50;
const LIST_SEPARATOR = '|';
const MAX_SOURCE_CHARACTERS = 1000;
const MAX_TAG_CHARACTERS = 100;

interface Problem {
  line: number;
  message: string;
}

/** Splits a list cell ("12|handbook.md"), trimmed, empty items left out. */
const listOf = (cell: string) =>
  cell
    .split(LIST_SEPARATOR)
    .map((item) => item.trim())
    .filter((item) => item !== '');

function sourcesOf(cell: string, problems: string[]): ExpectedSource[] {
  const items = listOf(cell);
  if (items.length > MAX_SOURCES) problems.push(`expected_sources lists ${items.length} sources, at most ${MAX_SOURCES}`);
  return items.map((item) => {
    if (/^\d+$/.test(item)) {
      const id = Number(item);
      if (!Number.isSafeInteger(id) || id < 1) problems.push(`expected_sources: ${item} is not a document id`);
      return id;
    }
    if (item.length > MAX_SOURCE_CHARACTERS) problems.push(`expected_sources: a source name over ${MAX_SOURCE_CHARACTERS} characters`);
    return item;
  });
}

function tagsOf(cell: string, problems: string[]): string[] {
  const tags = [...new Set(listOf(cell))];
  if (tags.length > MAX_TAGS) problems.push(`tags lists ${tags.length} tags, at most ${MAX_TAGS}`);
  if (tags.some((tag) => tag.length > MAX_TAG_CHARACTERS)) problems.push(`tags: a tag over ${MAX_TAG_CHARACTERS} characters`);
  return tags;
}

/** The query of one row; its problems are added to `problems`. */
function queryOf(cells: Partial<Record<Column, string>>, problems: string[]): NewQuery {
  const question = (cells.question ?? '').trim();
  if (question === '') problems.push('question is empty');
  if (question.length > MAX_QUESTION_CHARACTERS) problems.push(`question is over ${MAX_QUESTION_CHARACTERS.toLocaleString('en')} characters`);
  const expected = cells.expected_answer?.trim() ?? '';
  if (expected.length > MAX_QUESTION_CHARACTERS) problems.push(`expected_answer is over ${MAX_QUESTION_CHARACTERS.toLocaleString('en')} characters`);
  return {
    question,
    expected_answer: expected === '' ? null : expected,
    expected_sources: sourcesOf(cells.expected_sources ?? '', problems),
    tags: tagsOf(cells.tags ?? '', problems),
  };
}

/** The columns the header names, in order; problems with it are reported on line 1. */
function columnsOf(header: string[], problems: Problem[]): Column[] {
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) problems.push({ line: 1, message: `unknown column ${unknown.map((name) => JSON.stringify(name)).join(', ')}: the columns are ${CSV_COLUMNS.join(', ')}` });
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) problems.push({ line: 1, message: `column ${JSON.stringify(repeated[0])} is named twice` });
  if (!names.includes('question')) problems.push({ line: 1, message: 'the header has no question column' });
  return names as Column[];
}

/** Counts the lines of the text as the parser moves through it, so that each row knows the line it starts on. */
class LineCounter {
  private position = 0;
  private line = 1;

  constructor(private readonly text: string) {}

  /** The line the next row starts on, past the blank lines the parser skipped. */
  startOfRowAfter(cursor: number): number {
    this.advanceTo(cursor);
    for (;;) {
      const end = this.text.indexOf('\n', this.position);
      const blank = end !== -1 && this.text.slice(this.position, end).trim() === '';
      if (!blank) return this.line;
      this.advanceTo(end + 1);
    }
  }

  private advanceTo(position: number) {
    for (let i = this.position; i < position; i++) if (this.text.charCodeAt(i) === 10) this.line++;
    this.position = Math.max(this.position, position);
  }
}

/**
 * The queries of a CSV text with a header line. Throws BadRequest naming each line at fault (up to
 * 50), or the first line past `maxRows`.
 */
export function parseQueriesCsv(csv: string, maxRows: number): NewQuery[] {
  const text = csv.charCodeAt(0) === 0xfeff ? csv.slice(1) : csv;
  const lines = new LineCounter(text);
  const problems: Problem[] = [];
  const queries: NewQuery[] = [];
  let columns: Column[] | undefined;
  let cursor = 0;
  papa().parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
    step: (row, parser) => {
      const line = lines.startOfRowAfter(cursor);
      cursor = row.meta.cursor;
      const parseError = row.errors.find((error) => error.code !== 'UndetectableDelimiter');
      if (parseError) problems.push({ line, message: parseError.message });
      else if (columns === undefined) columns = columnsOf(row.data, problems);
      else if (queries.length >= maxRows) {
        problems.push({ line, message: `more than ${maxRows.toLocaleString('en')} queries: send the rest in another request` });
        parser.abort();
        return;
      } else if (row.data.length !== columns.length) {
        problems.push({ line, message: `${row.data.length} fields where the header has ${columns.length}` });
      } else {
        const rowProblems: string[] = [];
        const cells = Object.fromEntries(columns.map((column, index) => [column, row.data[index] ?? ''])) as Partial<Record<Column, string>>;
        const query = queryOf(cells, rowProblems);
        for (const message of rowProblems) problems.push({ line, message });
        if (rowProblems.length === 0) queries.push(query);
      }
      if (problems.length >= MAX_PROBLEMS) parser.abort();
    },
  });
  if (columns === undefined && problems.length === 0) problems.push({ line: 1, message: 'the CSV is empty: it needs a header line and a row' });
  else if (queries.length === 0 && problems.length === 0) problems.push({ line: 2, message: 'the CSV has a header but no row' });
  if (problems.length > 0) throw csvProblems(problems);
  return queries;
}

function csvProblems(problems: Problem[]): BadRequest {
  const details: ErrorDetail[] = problems.slice(0, MAX_PROBLEMS).map(({ line, message }) => ({ pointer: `/body/csv/line/${line}`, message: `line ${line}: ${message}` }));
  const lineNumbers = [...new Set(problems.map((problem) => problem.line))];
  const shown = lineNumbers.slice(0, 10).join(', ') + (lineNumbers.length > 10 ? ', …' : '');
  return new BadRequest(`The CSV cannot be imported: ${lineNumbers.length === 1 ? 'line' : 'lines'} ${shown} (${details[0]!.message}${details.length > 1 ? '; see details' : ''})`, details);
}

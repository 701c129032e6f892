// How a text's type is told from its content. Each test looks at the start of the text (JSON aside,
// which must parse whole) and errs towards the plainer type: a wrong "txt" loses a little structure,
// a wrong "csv" or "html" garbles the text.
import type Papa from 'papaparse';
import { requiredAtFirstUse } from '../required-at-first-use.js';

/** papaparse, required at the first text parsed (a start does not load it). */
const papa = requiredAtFirstUse<typeof Papa>('papaparse');

const SAMPLE_CHARS = 64 * 1024;

/** A JSON object or array (a bare number or string is text). */
export function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

const DOCUMENT_TAG = /<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]/i;
const LEADING_TAG = /^<(?:[a-z][a-z0-9]*)(?:[\s/>])/i;
const HTML_TAG_NAMES = new Set(
  ('a abbr article aside b blockquote br caption code dd div dl dt em figure footer form h1 h2 h3 h4 h5 h6 header hr i img ' +
    'li link main meta nav ol p pre section span strong style script table tbody td th thead title tr u ul').split(' '),
);

/** An HTML page or fragment: a document tag, or text that opens with a known HTML element. */
export function looksLikeHtml(text: string): boolean {
  const sample = text.slice(0, 4096).replace(/^(\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*/, '');
  if (DOCUMENT_TAG.test(sample)) return true;
  if (!LEADING_TAG.test(sample)) return false;
  const name = /^<([a-z0-9]+)/i.exec(sample)![1]!.toLowerCase();
  // A README that opens with <p align="center"> and goes on in Markdown is Markdown.
  return HTML_TAG_NAMES.has(name) && markdownScore(text) < 2;
}

const PROSE_ENDING = /[.!?:]["')\]]*$/;

const CSV_DELIMITERS = [',', ';', '\t'];

/** Rows of fields with one delimiter (comma, semicolon or tab) the same number of times on every line. */
export function looksLikeCsv(text: string): boolean {
  let sample = text.slice(0, SAMPLE_CHARS);
  if (sample.length < text.length) sample = sample.slice(0, sample.lastIndexOf('\n') + 1);
  return firstRowsMayMatch(sample) && parsesAsCsv(sample);
}

const occurrences = (line: string, delimiter: string) => line.split(delimiter).length - 1;

/** The first `count` lines that are not empty, as papaparse's skipEmptyLines reads them. */
function nonEmptyLines(text: string, count: number): string[] {
  const lines: string[] = [];
  for (let start = 0; lines.length < count && start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) lines.push(text.slice(start, end));
    start = end + 1;
  }
  return lines;
}

/** A quote that opens a quoted field (a field's first character), which may hold a delimiter or a line break. */
const OPENING_QUOTE = /(?:^|[\n,;\t])"/;

/**
 * False when the first two rows cannot have one width: read at a glance where a row is a line (no
 * quote opens a field, and no carriage return, which papaparse may take for the line break), as
 * papaparse would read them. Most prose is ruled out so, without parsing it: papaparse took a tenth
 * of preparing a short text.
 */
function firstRowsMayMatch(sample: string): boolean {
  if (OPENING_QUOTE.test(sample) || sample.includes('\r')) return true;
  const [first, second] = nonEmptyLines(sample, 2);
  if (first === undefined || second === undefined) return false;
  return CSV_DELIMITERS.some((delimiter) => {
    const count = occurrences(first, delimiter);
    return count > 0 && count === occurrences(second, delimiter);
  });
}

/** The sample parsed by papaparse, guessing the delimiter: rows of one width, not prose (for tests, the whole rule without the glance). */
export function parsesAsCsv(sample: string): boolean {
  const parsed = papa().parse<string[]>(sample, { delimitersToGuess: CSV_DELIMITERS, skipEmptyLines: true, preview: 200 });
  const rows = parsed.data;
  if (rows.length < 2 || parsed.errors.some((error) => error.type === 'Quotes')) return false;
  const width = rows[0]!.length;
  if (width < 2 || rows.some((row) => row.length !== width)) return false;
  // Prose with a comma per line has the shape but not the look: sentences end in punctuation,
  // headings start with #.
  const prose = rows.filter((row) => PROSE_ENDING.test(row[row.length - 1]!.trim())).length;
  if (prose > rows.length / 2) return false;
  if (rows.some((row) => /^#{1,6}\s/.test(row[0]!))) return false;
  return rows[0]!.every((field) => field.trim() !== '');
}

const MARKDOWN_SIGNALS: Array<[RegExp, number]> = [
  [/^#{1,6}\s+\S/m, 2], // heading
  [/^(```|~~~)/m, 2], // fenced code
  [/\[[^\]\n]+\]\([^)\s]+\)/, 2], // link
  [/^\|.*\|\s*$/m, 2], // table row
  [/^\s*(?:[-*+]|\d+[.)])\s+\S/m, 1], // list item
  [/^\s*[-*+]\s+\S.*\n\s*[-*+]\s+\S/m, 1], // a second one after it: a list
  [/^>\s?\S/m, 1], // block quote
  [/(\*\*|__)[^\s*_][^*_\n]*\1/, 1], // strong emphasis
];

/** Weighted count of the Markdown constructs that appear at the start of the text. */
export function markdownScore(text: string): number {
  const sample = text.slice(0, SAMPLE_CHARS);
  return MARKDOWN_SIGNALS.reduce((score, [pattern, weight]) => (pattern.test(sample) ? score + weight : score), 0);
}

export function looksLikeMarkdown(text: string): boolean {
  return markdownScore(text) >= 2;
}

// Valid PDFs with real text for the ingestion benchmark: the tests' own fixture builder
// (test/support/documents.ts), with the lines wrapped to a page's width.
import { makePdf as makeFixturePdf } from '../../test/support/documents.js';

/** A PDF whose pages show the given lines, top to bottom, with a title in its metadata. */
export function makePdf(pages: string[][], title: string): Buffer {
  return makeFixturePdf(pages, { title });
}

/** Splits text into lines of at most `width` characters, at spaces. */
export function wrapLines(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

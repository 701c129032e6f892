// Type detection looks at the content only: whatever a client calls a file, its bytes decide.
import { describe, expect, it } from 'vitest';
import { detectDocumentType } from '../src/ingest/detect-type.js';
import { looksLikeCsv, parsesAsCsv } from '../src/ingest/text-heuristics.js';
import { makeDocx, makePdf, makeZip, PNG_BYTES } from './support/documents.js';

const detect = (content: string | Buffer) => detectDocumentType(typeof content === 'string' ? Buffer.from(content) : content);

describe('binary formats', () => {
  it('knows a PDF by its %PDF- signature', () => {
    expect(detect(makePdf([['Hello']]))).toBe('pdf');
  });

  it('knows a DOCX as a ZIP holding word/document.xml', () => {
    expect(detect(makeDocx([{ paragraph: 'Hello' }]))).toBe('docx');
  });

  it('refuses other ZIPs: plain archives, spreadsheets, damaged archives', () => {
    expect(detect(makeZip({ 'readme.txt': 'hello' }))).toBeUndefined();
    expect(detect(makeZip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' }))).toBeUndefined();
    expect(detect(makeZip({ 'word/document.xml.bak': '<x/>', 'not-word/document.xml': '<x/>' }))).toBeUndefined();
    expect(detect(Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64, 7)]))).toBeUndefined();
  });

  it('refuses images, executables and binary garbage', () => {
    expect(detect(PNG_BYTES)).toBeUndefined();
    expect(detect(Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'))).toBeUndefined(); // JPEG
    expect(detect(Buffer.concat([Buffer.from('\u007fELF\u0002\u0001\u0001'), Buffer.alloc(32)]))).toBeUndefined();
    expect(detect(Buffer.from('MZ\u0090\u0000\u0003\u0000\u0000\u0000'))).toBeUndefined();
    let seed = 42;
    const garbage = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff));
    expect(detect(garbage)).toBeUndefined();
  });

  it('refuses text with NUL bytes, many control characters, or bytes that are not UTF-8', () => {
    expect(detect('hello\u0000world')).toBeUndefined();
    expect(detect('a\u0001b\u0002c\u0003d\u0004e')).toBeUndefined();
    expect(detect(Buffer.from('caf\u00e9 au lait', 'latin1'))).toBeUndefined();
  });
});

describe('spoofed content', () => {
  it('calls HTML sent as a PDF what it is', () => {
    // what a client uploads as "invoice.pdf" with Content-Type application/pdf
    const html = '<!DOCTYPE html><html><body><h1>Invoice</h1><script>steal()</script></body></html>';
    expect(detect(html)).toBe('html');
  });

  it('needs the PDF signature at the very start', () => {
    expect(detect('<html><body>%PDF-1.7</body></html>')).toBe('html');
    expect(detect(' %PDF-1.7\nnot really')).toBe('txt');
  });

  it('does not take a PNG for anything, whatever follows', () => {
    expect(detect(Buffer.concat([PNG_BYTES, Buffer.from('<html></html>')]))).toBeUndefined();
  });
});

describe('text formats', () => {
  it.each([
    ['{"name": "Ada", "tags": ["x"]}', 'json'],
    ['  \n[1, 2, {"a": null}]\n', 'json'],
    ['\ufeff{"bom": true}', 'json'],
    ['42', 'txt'],
    ['{ not json at all }', 'txt'],
    ['<!doctype html><title>x</title><p>Hello', 'html'],
    ['<html lang="en"><body><p>Hi</p></body></html>', 'html'],
    ['<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', 'html'],
    ['<!-- saved page -->\n<div class="post"><p>Hello</p></div>', 'html'],
    ['<p align="center"><img src="logo.png"></p>\n\n# Project\n\nSee [the docs](https://example.com/docs).', 'md'],
    ['name,age,city\nAda,36,London\nAlan,41,"Wilmslow, Cheshire"', 'csv'],
    ['name;age\nAda;36\nAlan;41', 'csv'],
    ['name\tage\nAda\t36\nAlan\t41\n', 'csv'],
    ['id,comment\n1,"line one\nline two"\n2,plain', 'csv'],
    ['Hello, world.\nHow are you, friend?', 'txt'],
    ['I came, I saw, I conquered.\nVeni, vidi, vici.', 'txt'],
    ['# Title\n\nSome text.', 'md'],
    ['Intro\n\n```js\nconst x = 1;\n```', 'md'],
    ['Things to buy:\n\n- milk\n- bread\n- eggs', 'md'],
    ['Read [the guide](https://example.com/guide) first.', 'md'],
    ['| a | b |\n|---|---|\n| 1 | 2 |', 'md'],
    ['Just a note.\n\nWith two paragraphs, and nothing else.', 'txt'],
    ['', 'txt'],
  ])('%j is %s', (content, type) => {
    expect(detect(content)).toBe(type);
  });

  it('reads UTF-16 with a byte-order mark', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Notes\n\nBonjour', 'utf16le')]);
    expect(detect(utf16)).toBe('md');
  });
});

describe('CSV at a glance', () => {
  // Random bytes of a few delimiters, words and punctuation, or rows of fields (sometimes a field too
  // many or too few); now and then a quote, a carriage return, an empty line or a heading.
  const PIECES = ['a', 'bc', 'Ada', '36', ' ', ',', ';', '\t', '.', '#', '# ', '\n', '\n\n', '"', '\r\n'];
  const FIELDS = ['a', 'bc', 'Ada', '36', 'x y', '', '.', '# h', '"q"', 'x"y', ' "q"'];
  const randomText = (seed: number) => {
    let state = seed;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
    if (seed % 2 === 0) return Array.from({ length: 4 + Math.floor(next() * 40) }, () => pick(PIECES)).join('');
    const delimiter = pick([',', ';', '\t']);
    const width = 1 + Math.floor(next() * 4);
    const rows = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
      Array.from({ length: width + (next() < 0.15 ? pick([-1, 1]) : 0) }, () => pick(FIELDS)).join(delimiter),
    );
    return rows.join(next() < 0.1 ? '\r\n' : next() < 0.2 ? '\n\n' : '\n');
  };

  it('rules out only what papaparse would rule out', () => {
    let csv = 0;
    for (let seed = 1; seed <= 20_000; seed++) {
      const text = randomText(seed);
      expect(looksLikeCsv(text), JSON.stringify(text)).toBe(parsesAsCsv(text));
      if (parsesAsCsv(text)) csv++;
    }
    // Both verdicts were met many times.
    expect(csv).toBeGreaterThan(1_000);
    expect(csv).toBeLessThan(18_000);
  });
});

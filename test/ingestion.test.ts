// The steps together, as the document pipeline calls them.
import { describe, expect, it } from 'vitest';
import { ExtractionFailed } from '../src/ingest/document.js';
import { createIngestion, detectDocumentType } from '../src/ingest/ingestion.js';
import { postgresFullText, sqliteFullText } from '../src/db/full-text.js';
import { documentSearchTerms, searchTitle } from '../src/search/analyzer.js';
import { makePdf } from './support/documents.js';
import { rejection } from './support/rejection.js';

describe('ingestion', () => {
  it('detects, extracts, keeps the text and chunks with the page of each chunk', async () => {
    const ingestion = createIngestion();
    const bytes = makePdf([['Quarterly revenue grew strongly.'], ['Second page mentions penguins.']]);
    const type = detectDocumentType(bytes)!;
    const document = await ingestion.extract(type, bytes);
    expect(ingestion.textOf(document)).toBe('Quarterly revenue grew strongly.\n\nSecond page mentions penguins.');
    expect(ingestion.chunk(document).map((chunk) => [chunk.position, chunk.page, chunk.text])).toEqual([
      [0, 1, 'Quarterly revenue grew strongly.'],
      [1, 2, 'Second page mentions penguins.'],
    ]);
  });

  it('uses a 512-token budget unless told otherwise', async () => {
    const ingestion = createIngestion();
    const document = await ingestion.extract('txt', Buffer.from('word '.repeat(2000)));
    const chunks = ingestion.chunk(document);
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((chunk) => chunk.tokenCount))).toBeLessThanOrEqual(512);
  });

  it('prepares a document whole (text, chunks, title) alike in the process (a small note) and in a thread (a larger page or a PDF)', async () => {
    const ingestion = createIngestion();
    try {
      const page = (paragraphs: number) =>
        Buffer.from(`<html><head><title>Harbours</title></head><body>${'<p>Boats rest in the harbour at night.</p>'.repeat(paragraphs)}</body></html>`);
      for (const bytes of [page(2), page(400), makePdf([['Quarterly revenue grew strongly.']])]) {
        const type = detectDocumentType(bytes)!;
        const document = await ingestion.extract(type, bytes);
        const prepared = await ingestion.prepare(type, bytes);
        expect(prepared.text).toBe(ingestion.textOf(document));
        expect(prepared.chunks).toEqual(ingestion.chunk(document));
        expect(prepared.document).toEqual({ title: document.title, ...(document.pageCount ? { pageCount: document.pageCount } : {}) });
        expect(Object.keys(prepared.timings).sort()).toEqual(['chunking', 'extracting']);
      }
      await expect(ingestion.prepare('txt', Buffer.from(' \n '))).rejects.toMatchObject({ kind: 'empty' });
    } finally {
      await ingestion.close();
    }
  });

  it('makes the chunks\' search columns where it prepares, as each database\'s full-text index makes them from the terms', async () => {
    const ingestion = createIngestion();
    try {
      const page = (paragraphs: number) => Buffer.from(`<html><body>${'<h2>Mooring lines</h2><p>Boats rest in the harbour at night; os.path.join stays whole.</p>'.repeat(paragraphs)}</body></html>`);
      // A small page is prepared in the process, a larger one in a thread; the second has no title of its own.
      for (const [bytes, source] of [
        [page(2), 'guides/harbours.html'],
        [page(400), 'guides/moorings.html'],
      ] as const) {
        for (const [index, language] of [
          [sqliteFullText, 'english'],
          [postgresFullText, 'french'],
        ] as const) {
          const prepared = await ingestion.prepare('html', bytes, { source, language, columns: index.searchColumnsKind });
          const title = searchTitle(prepared.document.title, source);
          expect(prepared.searchColumns).toEqual(documentSearchTerms(title, prepared.chunks, language).map((terms) => index.searchColumns(terms)));
          expect(prepared.searchColumns).toHaveLength(prepared.chunks.length);
          expect(prepared.searchColumns![0]!.search_body).toContain('ospathjoin');
          expect(prepared.searchColumns!.every((columns) => (columns.search !== undefined) === (index === postgresFullText))).toBe(true);
        }
      }
      expect((await ingestion.prepare('html', page(2))).searchColumns).toBeUndefined();
    } finally {
      await ingestion.close();
    }
  });

  it('refuses a type it does not know', async () => {
    const error = await rejection(createIngestion().extract('url', Buffer.from('x')), ExtractionFailed);
    expect(error.kind).toBe('unreadable');
    expect(error.message).toBe('Documents of type "url" cannot be processed');
  });
});

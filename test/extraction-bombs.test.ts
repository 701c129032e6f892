// Files that claim to be small and unpack to gigabytes (decompression bombs), and files that take
// too much time or memory: each fails alone, with a reason, while the process stays within a
// bounded memory and its event loop keeps turning. Bombs are built in the test (test/support/bombs.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTION_LIMITS, ExtractionFailed } from '../src/ingest/document.js';
import { extractDocument } from '../src/ingest/extract.js';
import { createIngestion, type Ingestion, type IngestionOptions } from '../src/ingest/ingestion.js';
import { lzwZeros, makeDocxBomb, makePdfWithStream, zlibZeros } from './support/bombs.js';
import { makeDocx, makePdf } from './support/documents.js';
import { watchProcess } from './support/peak-memory.js';
import { rejection } from './support/rejection.js';

const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;
/** What a bomb may add to the process's resident memory while it is refused. */
const BOUND_MB = 400;

const pdfBomb = () => makePdfWithStream(zlibZeros(GIB), 'FlateDecode');
const docxBomb = () => makeDocxBomb(400 * MIB, 10_000);
const normalPdf = () => makePdf([['Quarterly revenue grew strongly.'], ['Second page mentions penguins.']], { title: 'Report' });

let ingestions: Ingestion[] = [];
afterEach(async () => {
  await Promise.all(ingestions.map((ingestion) => ingestion.close()));
  ingestions = [];
});

/** An ingestion whose threads have started (their start-up is not the bombs' memory). */
async function warmIngestion(options: IngestionOptions = {}): Promise<Ingestion> {
  const ingestion = createIngestion(options);
  ingestions.push(ingestion);
  await Promise.all([ingestion.extract('pdf', normalPdf()), ingestion.extract('txt', Buffer.from('warm'))]);
  return ingestion;
}

const report = (what: string, watched: { peakAboveStartMb: number; loopTurns: number }) =>
  console.log(`${what}: peak ${Math.round(watched.peakAboveStartMb)} MB above the start, ${watched.loopTurns} turns of the event loop`);

const failure = (outcome: PromiseSettledResult<unknown>) => {
  expect(outcome.status).toBe('rejected');
  const reason = (outcome as PromiseRejectedResult).reason as unknown;
  expect(reason).toBeInstanceOf(ExtractionFailed);
  return reason as ExtractionFailed;
};

describe('decompression bombs', () => {
  it('refuses a PDF whose content stream inflates to a gigabyte, in bounded memory, the event loop turning', async () => {
    const ingestion = await warmIngestion();
    const watched = await watchProcess(() => ingestion.extract('pdf', pdfBomb()));
    const error = failure(watched.outcome);
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe("The PDF's content unpacks to more than 256 MB, the limit");
    expect(watched.peakAboveStartMb).toBeLessThan(BOUND_MB);
    expect(watched.loopTurns).toBeGreaterThan(100);
    report('PDF bomb', watched);
  });

  it('refuses a PDF whose LZW stream unpacks past the limit', async () => {
    const error = await rejection(extractDocument('pdf', makePdfWithStream(lzwZeros(300 * MIB), 'LZWDecode')), ExtractionFailed);
    expect(error.message).toBe("The PDF's content unpacks to more than 256 MB, the limit");
  });

  it('refuses a DOCX whose directory under-states document.xml, from what it actually inflates to', async () => {
    const ingestion = await warmIngestion();
    const watched = await watchProcess(() => ingestion.extract('docx', docxBomb()));
    const error = failure(watched.outcome);
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe("The DOCX file's text unpacks to more than 16777216 bytes of XML, the limit");
    expect(watched.peakAboveStartMb).toBeLessThan(BOUND_MB);
    expect(watched.loopTurns).toBeGreaterThan(100);
    report('DOCX bomb', watched);
  });

  it('refuses two bombs at once within the same bound', async () => {
    const ingestion = await warmIngestion({ threads: { threads: 2 } });
    const watched = await watchProcess(() => Promise.all([ingestion.extract('pdf', pdfBomb()), ingestion.extract('docx', docxBomb())]));
    expect(failure(watched.outcome).kind).toBe('too_large');
    expect(watched.peakAboveStartMb).toBeLessThan(BOUND_MB);
    report('PDF and DOCX bombs at once', watched);
  });
});

describe('extraction threads', () => {
  it('extract normal documents exactly as extraction in the process does', async () => {
    const ingestion = await warmIngestion();
    const docx = makeDocx([{ heading: 'Report' }, { paragraph: 'Revenue grew.' }, { table: [['Region', 'Revenue'], ['North', '120']] }], {
      'word/media/image1.png': 'not really an image',
    });
    for (const [type, bytes] of [['pdf', normalPdf()], ['docx', docx], ['md', Buffer.from('# Title\n\nSome *text*.')]] as const) {
      expect(await ingestion.extract(type, bytes)).toEqual(await extractDocument(type, bytes));
    }
  });

  it('end a document at its deadline', async () => {
    // A limit on unpacked size high enough that counting the bomb alone takes far longer than 1 ms.
    // The deadline counts from when the thread starts on the document, never its own start-up.
    const ingestion = createIngestion({ threads: { deadlineMs: 1 }, limits: { ...DEFAULT_EXTRACTION_LIMITS, maxPdfUnpackedBytes: 4 * GIB } });
    ingestions.push(ingestion);
    const error = await rejection(ingestion.extract('pdf', pdfBomb()), ExtractionFailed);
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe('Reading the PDF took longer than 1 ms, the limit');
  });

  it('fail a document that runs its thread out of heap, and go on with the next one', async () => {
    const ingestion = await warmIngestion({ threads: { heapMb: 96 } });
    const json = Buffer.from(JSON.stringify(Array.from({ length: 400_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] }))));
    const error = await rejection(ingestion.extract('json', json), ExtractionFailed);
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe('Reading the JSON file needs more than 96 MB of memory, the limit');
    expect((await ingestion.extract('pdf', normalPdf())).title).toBe('Report');
  });

  it('end a document whose unpacked streams outgrow the memory budget, which the heap limit does not see', async () => {
    // The pre-scan lets the bomb through; pdf.js then inflates it into typed arrays.
    const limits = { ...DEFAULT_EXTRACTION_LIMITS, maxPdfUnpackedBytes: 4 * GIB };
    const ingestion = await warmIngestion({ threads: { memoryMb: 128 }, limits });
    const watched = await watchProcess(() => ingestion.extract('pdf', pdfBomb()));
    const error = failure(watched.outcome);
    expect(error.message).toBe('Reading the PDF needs more than 128 MB of memory, the limit');
    expect(watched.peakAboveStartMb).toBeLessThan(BOUND_MB);
    report('PDF bomb stopped by the memory watch', watched);
    expect((await ingestion.extract('pdf', normalPdf())).title).toBe('Report');
  });

  it('do not fail a document for the memory of a bomb beside it', async () => {
    const limits = { ...DEFAULT_EXTRACTION_LIMITS, maxPdfUnpackedBytes: 4 * GIB };
    const ingestion = await warmIngestion({ threads: { threads: 2, memoryMb: 128 }, limits });
    const [bomb, normal] = await Promise.allSettled([ingestion.extract('pdf', pdfBomb()), ingestion.extract('pdf', normalPdf())]);
    expect(failure(bomb).kind).toBe('too_large');
    expect(normal.status === 'fulfilled' && normal.value.title).toBe('Report');
  });

  it('refuse work once closed', async () => {
    const ingestion = await warmIngestion();
    await ingestion.close();
    await expect(ingestion.extract('txt', Buffer.from('late'))).rejects.toThrow('The ingestion is closed');
  });
});

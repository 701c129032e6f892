// The ingestion steps as the document pipeline calls them: detect the type when a document is
// accepted; then extract, keep the whole text, and chunk (`prepare` does all three at once).
// Budgets and limits are set once here.
// Extraction runs in a small pool of threads (extraction-pool.ts), bounded in memory and time,
// so that a hostile or enormous file fails alone instead of taking the server with it; only small
// documents of the plainest formats are read in the process (IN_PROCESS_BYTES).
import { chunkDocument, type Chunk, type ChunkOptions } from './chunking.js';
import { DEFAULT_EXTRACTION_LIMITS, DOCUMENT_TYPES, ExtractionFailed, type DocumentType, type ExtractedDocument, type ExtractionLimits } from './document.js';
import { DEFAULT_EXTRACTION_THREADS, ExtractionPool, type ExtractionThreadLimits } from './extraction-pool.js';
import type { ExtractionRequest, ExtractionResult } from './extraction-thread.js';
import { documentText, prepareDocument, type ChunkAnalysis, type PreparedDocument } from './prepare.js';

export { detectDocumentType } from './detect-type.js';
export { DEFAULT_EXTRACTION_THREADS, type ExtractionThreadLimits } from './extraction-pool.js';
export { chunkSearchColumns, documentText, type ChunkAnalysis, type PreparedDocument } from './prepare.js';

/**
 * Documents this small, of the text formats whose readers take time in proportion to their input,
 * are prepared in the process: handing a 1 KB note to a thread and back cost the event loop several
 * times what reading and chunking it does. Markdown is left to the threads (its parser has met
 * inputs that take it quadratic time), and so are PDF and DOCX, which unpack.
 */
const IN_PROCESS_BYTES = 8 * 1024;
const IN_PROCESS_TYPES: ReadonlySet<string> = new Set(['txt', 'html', 'csv', 'json']);

/** 512 tokens fits every common embedding model's input with room; 64 tokens is about two sentences. */
export const DEFAULT_CHUNKING: ChunkOptions = { maxTokens: 512, overlapTokens: 64 };

export interface IngestionOptions {
  limits?: ExtractionLimits;
  chunking?: ChunkOptions;
  /** Threads, and the memory and time each extraction may take (defaults: DEFAULT_EXTRACTION_THREADS). */
  threads?: Partial<ExtractionThreadLimits>;
}

export interface Ingestion {
  /** Throws ExtractionFailed (413 or 415, with a reason for the user) when the text cannot be had. */
  extract(type: string, bytes: Buffer): Promise<ExtractedDocument>;
  /**
   * Extracts, joins the text and chunks, all in an extraction thread, and makes the chunks' search
   * columns there too when given an analysis; throws as `extract` does.
   */
  prepare(type: string, bytes: Buffer, analysis?: ChunkAnalysis): Promise<PreparedDocument>;
  /** The document's whole text, as the document's `text` field keeps it. */
  textOf(document: ExtractedDocument): string;
  chunk(document: ExtractedDocument): Chunk[];
  /** Ends the extraction threads (on shutdown); extractions in progress are rejected. */
  close(): Promise<void>;
}

export function isDocumentType(type: string): type is DocumentType {
  return (DOCUMENT_TYPES as readonly string[]).includes(type);
}

export function createIngestion(options: IngestionOptions = {}): Ingestion {
  const limits = options.limits ?? DEFAULT_EXTRACTION_LIMITS;
  const chunking = options.chunking ?? DEFAULT_CHUNKING;
  const threads = { ...DEFAULT_EXTRACTION_THREADS, ...options.threads };
  // Started at the first extraction: an app that never extracts starts no thread.
  let pool: ExtractionPool | undefined;
  let closed = false;
  const run = (type: string, bytes: Buffer, request: Partial<ExtractionRequest>): Promise<ExtractionResult> => {
    if (closed) return Promise.reject(new Error('The ingestion is closed'));
    if (!isDocumentType(type)) return Promise.reject(new ExtractionFailed('unreadable', `Documents of type "${type}" cannot be processed`));
    pool ??= new ExtractionPool(threads);
    return pool.extract({ ...request, type, bytes, limits });
  };
  return {
    async extract(type, bytes) {
      const result = await run(type, bytes, {});
      if (!('document' in result)) throw new Error('The extraction thread answered with a prepared document');
      return result.document;
    },
    async prepare(type, bytes, analysis) {
      if (closed) throw new Error('The ingestion is closed');
      if (bytes.length <= IN_PROCESS_BYTES && IN_PROCESS_TYPES.has(type) && isDocumentType(type)) return prepareDocument(type, bytes, limits, chunking, analysis);
      const result = await run(type, bytes, { chunking, ...(analysis ? { analysis } : {}) });
      if (!('prepared' in result)) throw new Error('The extraction thread answered without chunks');
      return result.prepared;
    },
    textOf: documentText,
    chunk: (document) => chunkDocument(document, chunking),
    async close() {
      closed = true;
      await pool?.close();
    },
  };
}

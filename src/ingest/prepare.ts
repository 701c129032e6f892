// A document made ready for the index in one go: extracted, its whole text joined, and chunked.
// The extraction threads run this (extraction-thread.ts), so that the tokenizer's work on a large
// page is done beside the event loop, not on it; the time each part took comes back with it.
import { performance } from 'node:perf_hooks';
import { chunkDocument, type Chunk, type ChunkOptions } from './chunking.js';
import type { DocumentType, ExtractedDocument, ExtractionLimits } from './document.js';
import { extractDocument } from './extract.js';

export interface PreparedDocument {
  /** The document's title and page count; its blocks stay in the thread (the text and chunks carry them). */
  document: Omit<ExtractedDocument, 'blocks'>;
  /** The blocks' text, as the document's `text` field keeps it (see documentText). */
  text: string;
  chunks: Chunk[];
  /** Milliseconds spent extracting, then chunking (the document's step_timings). */
  timings: { extracting: number; chunking: number };
}

/** The blocks' text, one block after another with a blank line between them. */
export function documentText(document: ExtractedDocument): string {
  return document.blocks.map((block) => block.text).join('\n\n');
}

const since = (start: number) => Math.round((performance.now() - start) * 100) / 100;

/** Throws ExtractionFailed as extractDocument does. */
export async function prepareDocument(type: DocumentType, bytes: Buffer, limits: ExtractionLimits, chunking: ChunkOptions): Promise<PreparedDocument> {
  let started = performance.now();
  const document = await extractDocument(type, bytes, limits);
  const text = documentText(document);
  const extracting = since(started);
  started = performance.now();
  const chunks = chunkDocument(document, chunking);
  const { blocks: _blocks, ...facts } = document;
  return { document: facts, text, chunks, timings: { extracting, chunking: since(started) } };
}

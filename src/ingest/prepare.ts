// A document made ready for the index in one go: extracted, its whole text joined, and chunked.
// The extraction threads run this (extraction-thread.ts), so that the tokenizer's work on a large
// page is done beside the event loop, not on it; the time each part took comes back with it.
import { performance } from 'node:perf_hooks';
import { searchFields, searchTitle, type SearchFields } from '../search/analyzer.js';
import type { SearchLanguage } from '../search/languages.js';
import { chunkDocument, type Chunk, type ChunkOptions } from './chunking.js';
import type { DocumentType, ExtractedDocument, ExtractionLimits } from './document.js';
import { extractDocument } from './extract.js';

export interface PreparedDocument {
  /** The document's title and page count; its blocks stay in the thread (the text and chunks carry them). */
  document: Omit<ExtractedDocument, 'blocks'>;
  /** The blocks' text, as the document's `text` field keeps it (see documentText). */
  text: string;
  chunks: Chunk[];
  /** Each chunk's search terms, in `search.language`, when the document was prepared for a search index. */
  search?: { language: SearchLanguage; fields: SearchFields[] };
  /** Milliseconds spent extracting, then chunking (the document's step_timings). */
  timings: { extracting: number; chunking: number };
}

/** The blocks' text, one block after another with a blank line between them. */
export function documentText(document: ExtractedDocument): string {
  return document.blocks.map((block) => block.text).join('\n\n');
}

const since = (start: number) => Math.round((performance.now() - start) * 100) / 100;

/** What the search index needs to analyse a document's chunks: its corpus's language and the document's source. */
export interface SearchAnalysis {
  language: SearchLanguage;
  source: string;
}

/** Each chunk's search terms: the document's title, the chunk's heading path and its text. */
export function chunkSearchFields(title: string | undefined, chunks: readonly Chunk[], analysis: SearchAnalysis): SearchFields[] {
  const searchedTitle = searchTitle(title, analysis.source);
  return chunks.map((chunk) => searchFields({ title: searchedTitle, heading: chunk.heading ?? null, text: chunk.text }, analysis.language));
}

/**
 * Throws ExtractionFailed as extractDocument does. With `analysis`, the chunks' search terms are made
 * too (counted in the chunking time): in an extraction thread, that is work off the event loop.
 */
export async function prepareDocument(type: DocumentType, bytes: Buffer, limits: ExtractionLimits, chunking: ChunkOptions, analysis?: SearchAnalysis): Promise<PreparedDocument> {
  let started = performance.now();
  const document = await extractDocument(type, bytes, limits);
  const text = documentText(document);
  const extracting = since(started);
  started = performance.now();
  const chunks = chunkDocument(document, chunking);
  const search = analysis && { language: analysis.language, fields: chunkSearchFields(document.title, chunks, analysis) };
  const { blocks: _blocks, ...facts } = document;
  return { document: facts, text, chunks, ...(search ? { search } : {}), timings: { extracting, chunking: since(started) } };
}

// A document made ready for the index in one go: extracted, its whole text joined, chunked, and
// (when asked) its chunks' search columns made. The extraction threads run this
// (extraction-thread.ts), so that the tokenizer's and the analyser's work on a large page is done
// beside the event loop, not on it; the time each part took comes back with it.
import { performance } from 'node:perf_hooks';
import { searchColumnsOf, type ChunkSearchColumns, type SearchColumnsKind } from '../db/search-columns.js';
import { documentSearchTerms, searchTitle } from '../search/analyzer.js';
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
  /** Each chunk's search columns, made as the analysis asked: present when one was given. */
  searchColumns?: ChunkSearchColumns[];
  /** Milliseconds spent extracting, then chunking (the document's step_timings). */
  timings: { extracting: number; chunking: number };
}

/** How the chunks' search columns are to be made: the document's name and corpus, the database. */
export interface ChunkAnalysis {
  /** The document's name, its search title when its file gives none (searchTitle). */
  source: string;
  /** The corpus's language, as the job read it. */
  language: SearchLanguage;
  columns: SearchColumnsKind;
}

/** The search columns of a document's chunks: its title analysed once, then each chunk. */
export function chunkSearchColumns(title: string | undefined, chunks: readonly Chunk[], analysis: ChunkAnalysis): ChunkSearchColumns[] {
  return documentSearchTerms(searchTitle(title, analysis.source), chunks, analysis.language).map((terms) => searchColumnsOf(analysis.columns, terms));
}

/** The blocks' text, one block after another with a blank line between them. */
export function documentText(document: ExtractedDocument): string {
  return document.blocks.map((block) => block.text).join('\n\n');
}

const since = (start: number) => Math.round((performance.now() - start) * 100) / 100;

/** Throws ExtractionFailed as extractDocument does. */
export async function prepareDocument(type: DocumentType, bytes: Buffer, limits: ExtractionLimits, chunking: ChunkOptions, analysis?: ChunkAnalysis): Promise<PreparedDocument> {
  let started = performance.now();
  const document = await extractDocument(type, bytes, limits);
  const text = documentText(document);
  const extracting = since(started);
  started = performance.now();
  const chunks = chunkDocument(document, chunking);
  const chunked = since(started);
  const { blocks: _blocks, ...facts } = document;
  const searchColumns = analysis === undefined ? undefined : chunkSearchColumns(document.title, chunks, analysis);
  return { document: facts, text, chunks, ...(searchColumns ? { searchColumns } : {}), timings: { extracting, chunking: chunked } };
}

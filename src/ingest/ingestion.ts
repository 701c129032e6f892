// Extraction and chunking as the document pipeline uses them: the type from the content, the text
// stored on the document, and the chunks that retrieval indexes.
import type { Ingestion } from '../modules/documents/pipeline/process-document.js';
import { chunkDocument, type ChunkOptions } from './chunking.js';
import { detectDocumentType } from './detect-type.js';
import type { DocumentType, ExtractedDocument } from './document.js';
import { extractDocument } from './extract.js';

export { detectDocumentType };

/** A chunk of about 400 tokens keeps a passage's context while staying precise; 50 tokens of overlap keep a sentence cut at a boundary findable. */
export const CHUNKING: ChunkOptions = { maxTokens: 400, overlapTokens: 50 };

/** The document's text as stored and listed: its blocks, a blank line apart. */
export function textOf(document: ExtractedDocument): string {
  return document.blocks.map((block) => block.text).join('\n\n');
}

export function createIngestion(options: ChunkOptions = CHUNKING): Ingestion<ExtractedDocument> {
  return {
    extract: (type, bytes) => extractDocument(type as DocumentType, bytes),
    textOf,
    chunk: (document) => chunkDocument(document, options),
  };
}

// The shapes that pass between the steps of ingestion: the detected type, the extracted document
// (blocks that keep headings and page numbers), and the errors extraction throws.
import { AppError } from '../errors.js';

export const DOCUMENT_TYPES = ['pdf', 'docx', 'html', 'md', 'txt', 'csv', 'json'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** What the user's messages call a document of each type. */
export const DOCUMENT_LABELS: Record<DocumentType, string> = {
  pdf: 'PDF',
  docx: 'DOCX file',
  html: 'HTML page',
  md: 'Markdown file',
  txt: 'text file',
  csv: 'CSV file',
  json: 'JSON file',
};

export type BlockKind = 'heading' | 'paragraph' | 'table' | 'list' | 'code';

export interface Block {
  kind: BlockKind;
  /** Paragraphs are one line of prose; tables, lists and code keep their lines. */
  text: string;
  /** Headings only: 1 (a title) to 6. */
  level?: number;
  /** 1-based page of a PDF the block is on. */
  page?: number;
}

export interface ExtractedDocument {
  blocks: Block[];
  /** The document's own title (PDF metadata, HTML <title>, first top-level heading), if it has one. */
  title?: string;
  /** PDFs only. */
  pageCount?: number;
}

export type ExtractionFailureKind = 'unreadable' | 'encrypted' | 'too_large' | 'empty';

/**
 * A document whose text could not be extracted. The message is meant for the user: the pipeline
 * stores it as the document's `error`. Too large → 413, anything else → 415 (a file the server
 * cannot process).
 */
export class ExtractionFailed extends AppError {
  constructor(
    readonly kind: ExtractionFailureKind,
    message: string,
  ) {
    super(kind === 'too_large' ? 413 : 415, kind === 'too_large' ? 'payload_too_large' : 'unsupported_media_type', message);
  }
}

/** Bounds on one document's extraction, so that one file cannot exhaust the worker's memory. */
export interface ExtractionLimits {
  /** Characters of extracted text. */
  maxTextChars: number;
  maxPdfPages: number;
  /**
   * Unpacked size of the XML a DOCX reader parses (its .xml and .rels parts; images are never
   * unpacked), checked against the sizes the ZIP directory declares and then against what actually
   * inflates. mammoth needs about 60 times this in memory.
   */
  maxDocxXmlBytes: number;
  /**
   * What a PDF's streams (content, fonts, forms, object streams; not images, which text extraction
   * never decodes) unpack to in all, measured by inflating them before pdf.js opens the file.
   */
  maxPdfUnpackedBytes: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxTextChars: 10_000_000,
  maxPdfPages: 2_000,
  maxDocxXmlBytes: 16 * 1024 * 1024,
  maxPdfUnpackedBytes: 256 * 1024 * 1024,
};

// The shapes that pass between the steps of ingestion: the detected type, the extracted document
// (blocks that keep headings and page numbers), and the errors extraction throws.

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
 * A document whose text could not be extracted, and never will be: the pipeline fails the document
 * at once (no retry) and stores the message, which is meant for the user, as its `error`. Extraction
 * runs in the background, not in a request, so it carries a kind rather than an HTTP status.
 */
export class ExtractionFailed extends Error {
  constructor(
    readonly kind: ExtractionFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionFailed';
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

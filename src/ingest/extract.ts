// Text extraction: a document's bytes and detected type → blocks (headings, paragraphs, tables,
// lists, code) with page numbers where the format has pages. Failures throw ExtractionFailed with a
// reason meant for the user; the original error, if any, is kept as its `cause` for the log.
// Each extractor is loaded with the first document of its type: PDF, Word, HTML and Markdown bring
// parsers of megabytes that a process which never sees such a document need not load.
import { BlockList } from './block-list.js';
import { DEFAULT_EXTRACTION_LIMITS, DOCUMENT_LABELS, ExtractionFailed, type DocumentType, type ExtractedDocument, type ExtractionLimits } from './document.js';
import { decodeText } from './text-decoding.js';

type TextExtractor = (text: string, out: BlockList) => { title: string | undefined };

const TEXT_EXTRACTORS = {
  html: async () => (await import('./extractors/html.js')).extractHtml,
  md: async () => (await import('./extractors/markdown.js')).extractMarkdown,
  txt: async () => (await import('./extractors/plain-text.js')).extractPlainText,
  csv: async () => (await import('./extractors/csv.js')).extractCsv,
  json: async () => (await import('./extractors/json.js')).extractJson,
} satisfies Record<Exclude<DocumentType, 'pdf' | 'docx'>, () => Promise<TextExtractor>>;

async function extractInto(
  type: DocumentType,
  bytes: Buffer,
  out: BlockList,
  limits: ExtractionLimits,
): Promise<{ title: string | undefined; pageCount?: number }> {
  if (type === 'pdf') return (await import('./extractors/pdf.js')).extractPdf(bytes, out, limits);
  if (type === 'docx') return (await import('./extractors/docx.js')).extractDocx(bytes, out, limits);
  const text = decodeText(bytes);
  if (text === undefined) throw new ExtractionFailed('unreadable', `The ${DOCUMENT_LABELS[type]} is not UTF-8 or UTF-16 text`);
  return (await TEXT_EXTRACTORS[type]())(text, out);
}

export async function extractDocument(
  type: DocumentType,
  bytes: Buffer,
  limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
): Promise<ExtractedDocument> {
  const out = new BlockList(limits.maxTextChars);
  let found: { title: string | undefined; pageCount?: number };
  try {
    found = await extractInto(type, bytes, out, limits);
  } catch (error) {
    if (error instanceof ExtractionFailed) throw error;
    const failure = new ExtractionFailed('unreadable', `The ${DOCUMENT_LABELS[type]} could not be read: it is damaged or not a ${DOCUMENT_LABELS[type]}`);
    throw Object.assign(failure, { cause: error });
  }
  if (out.blocks.length === 0) {
    const hint = type === 'pdf' ? ' (a scanned PDF needs text recognition, which the server does not do)' : '';
    throw new ExtractionFailed('empty', `The ${DOCUMENT_LABELS[type]} contains no text${hint}`);
  }
  const document: ExtractedDocument = { blocks: out.blocks };
  if (found.title !== undefined) document.title = found.title;
  if (found.pageCount !== undefined) document.pageCount = found.pageCount;
  return document;
}

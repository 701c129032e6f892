// A document's type, decided from its bytes alone. The file name and the Content-Type a client sends
// are never consulted, so HTML uploaded as "report.pdf" is HTML. Undefined = not a type the server
// processes (images, executables, archives other than DOCX, non-UTF text): the caller answers 415.
// An empty text is "txt"; its extraction then fails with a reason ("no text").
import type { DocumentType } from './document.js';
import { decodeText } from './text-decoding.js';
import { looksLikeCsv, looksLikeHtml, looksLikeJson, looksLikeMarkdown } from './text-heuristics.js';
import { isZip, listZipEntries } from './zip-entries.js';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

export function detectDocumentType(bytes: Uint8Array): DocumentType | undefined {
  if (bytes.length >= PDF_MAGIC.length && PDF_MAGIC.every((byte, i) => bytes[i] === byte)) return 'pdf';
  if (isZip(bytes)) {
    const entries = listZipEntries(bytes);
    return entries?.some((entry) => entry.name === 'word/document.xml') ? 'docx' : undefined;
  }
  const text = decodeText(bytes);
  if (text === undefined) return undefined;
  return detectTextType(text);
}

/** The type of a text; the order matters: each test only sees texts the earlier ones let pass. */
export function detectTextType(text: string): DocumentType {
  if (looksLikeJson(text)) return 'json';
  if (looksLikeHtml(text)) return 'html';
  if (looksLikeCsv(text)) return 'csv';
  if (looksLikeMarkdown(text)) return 'md';
  return 'txt';
}

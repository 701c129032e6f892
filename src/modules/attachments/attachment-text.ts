// A given file's text, read as documents are read: the type decided from the bytes (never the name
// or the client's content type), the text extracted by the ingestion's extraction threads, bounded
// in memory and time, so that a hostile file fails alone. A file that yields no text is refused with
// a reason the person can act on; nothing of it is kept.
import { BadRequest, PayloadTooLarge, UnsupportedMediaType, type AppError } from '../../errors.js';
import { ExtractionFailed, type DocumentType } from '../../ingest/document.js';
import type { Ingestion } from '../../ingest/ingestion.js';

export interface ReadableFile {
  filename: string;
  bytes: Buffer;
}

export interface FileText {
  type: DocumentType;
  text: string;
}

export type ReadFileText = (file: ReadableFile) => Promise<FileText>;

const SUPPORTED = 'PDF, DOCX, HTML, Markdown, plain text, CSV, JSON';

function refusal(filename: string, failure: ExtractionFailed): AppError {
  const message = `${filename}: ${failure.message}`;
  if (failure.kind === 'too_large') return new PayloadTooLarge(message);
  if (failure.kind === 'empty') return new BadRequest(message, [{ pointer: '/body/files', message: 'holds no text' }]);
  return new UnsupportedMediaType(message);
}

export function fileTextReader(ingestion: Pick<Ingestion, 'extract' | 'textOf'>, detectType: (bytes: Uint8Array) => DocumentType | undefined): ReadFileText {
  return async ({ filename, bytes }) => {
    const type = detectType(bytes);
    if (type === undefined) throw new UnsupportedMediaType(`${filename}: this kind of file cannot be read (supported: ${SUPPORTED})`);
    try {
      return { type, text: ingestion.textOf(await ingestion.extract(type, bytes)) };
    } catch (error) {
      if (error instanceof ExtractionFailed) throw refusal(filename, error);
      throw error;
    }
  };
}

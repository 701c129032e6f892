// What an upload brings, whatever the channel: the bytes, a display name, where it came from.
// Multipart files are read one at a time within the configured limits.
import type { FastifyRequest } from 'fastify';
import { AppError, BadRequest, PayloadTooLarge } from '../../errors.js';
import type { UploadChannel } from '../../db/schema.js';
import { refuseUnstorableText } from '../../http/storable-text.js';

export interface IncomingDocument {
  source: string;
  bytes: Buffer;
  uploadFrom: UploadChannel;
  accessUrl: string | null;
}

const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * A file name as a client sent it, made fit to show: no directories, no control characters, bounded.
 * It is only ever displayed; stored files are named by the server.
 */
export function displayName(name: string | undefined, fallback = 'document'): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(CONTROL, '').trim().slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}

export interface MultipartUpload {
  files: IncomingDocument[];
  fields: Record<string, string>;
}

/** Reads every part of a multipart upload: files into memory one by one (each within the limit), fields as text. */
export async function readMultipart(request: FastifyRequest, fileLimitBytes: number): Promise<MultipartUpload> {
  const files: IncomingDocument[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        refuseUnstorableText({ body: { [part.fieldname]: fields[part.fieldname] } });
        continue;
      }
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw new PayloadTooLarge(`${displayName(part.filename)} is larger than ${fileLimitBytes} bytes`);
      files.push({ source: displayName(part.filename), bytes, uploadFrom: 'upload', accessUrl: null });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The multipart reader's own errors carry a status (413 for its limits); the parser's
    // errors on a malformed body carry none.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw new PayloadTooLarge(`Over the upload limits: at most ${fileLimitBytes} bytes a file, and a bounded number of files and parts`);
    throw new BadRequest(`Malformed multipart body: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (files.length === 0) throw new BadRequest('No file in the upload: send one or more file parts');
  return { files, fields };
}

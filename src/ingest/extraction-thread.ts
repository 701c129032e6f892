// The script of an extraction thread: it extracts one document at a time, as the pool sends them,
// and posts back the blocks or the reason for the user. Runs under the heap limit the pool gives
// the thread; the pool ends the thread when it runs out of time or memory.
import { parentPort } from 'node:worker_threads';
import { ExtractionFailed, type DocumentType, type ExtractedDocument, type ExtractionFailureKind, type ExtractionLimits } from './document.js';
import { extractDocument } from './extract.js';

export interface ExtractionRequest {
  type: DocumentType;
  bytes: Uint8Array;
  limits: ExtractionLimits;
}

export type ExtractionReply =
  | { ready: true }
  | { document: ExtractedDocument }
  | { failure: { kind: ExtractionFailureKind; message: string; cause?: string } };

function replyTo(error: unknown): ExtractionReply {
  // extractDocument turns every error into an ExtractionFailed; the library's own error, kept as its
  // cause for the log, crosses to the pool as text.
  const failed = error instanceof ExtractionFailed ? error : new ExtractionFailed('unreadable', 'The document could not be read');
  const cause = (failed.cause ?? (error === failed ? undefined : error)) as Error | undefined;
  return { failure: { kind: failed.kind, message: failed.message, ...(cause ? { cause: cause.stack ?? String(cause) } : {}) } };
}

const port = parentPort;
if (port !== null) {
  port.on('message', async (request: ExtractionRequest) => {
    const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
    let reply: ExtractionReply;
    try {
      reply = { document: await extractDocument(request.type, bytes, request.limits) };
    } catch (error) {
      reply = replyTo(error);
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies ExtractionReply);
}

// The script of an extraction thread: it extracts one document at a time, as the pool sends them,
// and posts back the blocks (or, asked with chunking options, the prepared document: text, chunks
// and, asked with an analysis, the chunks' search columns) or the reason for the user. Runs under the
// heap limit the pool gives the thread; the pool ends the thread when it runs out of time or memory.
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { ChunkOptions } from './chunking.js';
import { ExtractionFailed, type DocumentType, type ExtractedDocument, type ExtractionFailureKind, type ExtractionLimits } from './document.js';
import { extractDocument } from './extract.js';
import { prepareDocument, type ChunkAnalysis, type PreparedDocument } from './prepare.js';

export interface ExtractionRequest {
  type: DocumentType;
  bytes: Uint8Array;
  limits: ExtractionLimits;
  /** Chunk the document too, with these options, and answer with the prepared document. */
  chunking?: ChunkOptions;
  /** With chunking: make the chunks' search columns too, as it says. */
  analysis?: ChunkAnalysis;
}

/** What an extraction gives: the extracted document, or the prepared one when chunking was asked for. */
export type ExtractionResult = { document: ExtractedDocument } | { prepared: PreparedDocument };

export type ExtractionReply = { ready: true } | ExtractionResult | { failure: { kind: ExtractionFailureKind; message: string; cause?: string } };

function replyTo(error: unknown): ExtractionReply {
  // extractDocument turns every error into an ExtractionFailed; the library's own error, kept as its
  // cause for the log, crosses to the pool as text.
  const failed = error instanceof ExtractionFailed ? error : new ExtractionFailed('unreadable', 'The document could not be read');
  const cause = (failed.cause ?? (error === failed ? undefined : error)) as Error | undefined;
  return { failure: { kind: failed.kind, message: failed.message, ...(cause ? { cause: cause.stack ?? String(cause) } : {}) } };
}

async function answer(port: MessagePort, request: ExtractionRequest): Promise<void> {
  const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  let reply: ExtractionReply;
  try {
    reply =
      request.chunking === undefined
        ? { document: await extractDocument(request.type, bytes, request.limits) }
        : { prepared: await prepareDocument(request.type, bytes, request.limits, request.chunking, request.analysis) };
  } catch (error) {
    reply = replyTo(error);
  }
  port.postMessage(reply);
}

const port = parentPort;
if (port !== null) {
  // Not awaited: the port's listener takes no promise, and every failure of the work is the reply.
  port.on('message', (request: ExtractionRequest) => void answer(port, request));
  port.postMessage({ ready: true } satisfies ExtractionReply);
}

// Inflating with a ceiling on what actually comes out, whatever sizes the file declares. zlib runs
// off the calling thread in chunks of 64 KiB, so memory stays at a chunk when the output is only
// counted, and at the ceiling when it is kept; a stream that goes past the ceiling is abandoned
// there, a gigabyte bomb costs the time to inflate the ceiling, never the gigabyte.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflate, createInflateRaw } from 'node:zlib';

const CHUNK_BYTES = 64 * 1024;

export interface InflateOptions {
  /** 'zlib' (PDF FlateDecode) or 'raw' deflate (ZIP entries). */
  format: 'zlib' | 'raw';
  /** Inflations in a row, for data deflated more than once (a PDF's [/FlateDecode /FlateDecode]). */
  passes?: number;
  maxBytes: number;
  /** Keep the output (up to maxBytes), or only count it. */
  keep?: boolean;
}

export interface InflateOutcome {
  /** Bytes that came out; past maxBytes when exceeded (by at most a chunk). */
  size: number;
  exceeded: boolean;
  /** The data was not valid deflate; size counts what came out before the error. */
  damaged: boolean;
  /** The output, when kept and not exceeded. */
  output?: Buffer;
}

class CeilingReached extends Error {}

/**
 * Inflates `input` until the deflate data ends (anything after it is ignored, so the input may run
 * to the end of a file) or until more than maxBytes came out.
 */
export async function inflateWithin(input: Uint8Array, options: InflateOptions): Promise<InflateOutcome> {
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > options.maxBytes) return done(new CeilingReached());
      if (options.keep) chunks.push(chunk);
      done();
    },
  });
  const inflaters = Array.from({ length: options.passes ?? 1 }, (_, pass) =>
    options.format === 'raw' && pass === 0 ? createInflateRaw({ chunkSize: CHUNK_BYTES }) : createInflate({ chunkSize: CHUNK_BYTES }),
  );
  try {
    const stages: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = [Readable.from([input], { objectMode: false }), ...inflaters, sink];
    await pipeline(stages);
  } catch (error) {
    if (error instanceof CeilingReached) return { size, exceeded: true, damaged: false };
    return { size, exceeded: false, damaged: true };
  }
  return { size, exceeded: false, damaged: false, ...(options.keep ? { output: Buffer.concat(chunks, size) } : {}) };
}

// What a PDF stream's filters would unpack it to, measured without keeping the output. FlateDecode
// goes through zlib with a ceiling; LZW and RunLength are counted here (an LZW code's output length
// is all the count needs, so the table holds lengths, never strings); the ASCII encodings shrink
// their input, so they are decoded in full (at most the file's size) to reach the filter behind.
import { inflateWithin } from './bounded-inflate.js';

export type PdfFilter = 'FlateDecode' | 'LZWDecode' | 'RunLengthDecode' | 'ASCIIHexDecode' | 'ASCII85Decode' | 'other';

const ABBREVIATIONS: Record<string, PdfFilter> = {
  FlateDecode: 'FlateDecode', Fl: 'FlateDecode',
  LZWDecode: 'LZWDecode', LZW: 'LZWDecode',
  RunLengthDecode: 'RunLengthDecode', RL: 'RunLengthDecode',
  ASCIIHexDecode: 'ASCIIHexDecode', AHx: 'ASCIIHexDecode',
  ASCII85Decode: 'ASCII85Decode', A85: 'ASCII85Decode',
};

export function pdfFilter(name: string): PdfFilter {
  return ABBREVIATIONS[name] ?? 'other';
}

/** Counts LZW output (PDF's variant: 9 to 12 bits, 256 clears, 257 ends), stopping past maxBytes. */
export function lzwDecodedSize(data: Uint8Array, earlyChange: number, maxBytes: number): number {
  const lengths = new Uint16Array(4096).fill(1, 0, 256);
  let next = 258;
  let width = 9;
  let previous = 0;
  let size = 0;
  let bits = 0;
  let held = 0;
  for (let i = 0; size <= maxBytes; ) {
    while (bits < width && i < data.length) {
      held = ((held << 8) | data[i++]!) & 0xffffff;
      bits += 8;
    }
    if (bits < width) break;
    bits -= width;
    const code = (held >>> bits) & ((1 << width) - 1);
    if (code === 256) {
      [next, width, previous] = [258, 9, 0];
      continue;
    }
    if (code === 257 || code > next || (code === next && previous === 0)) break;
    const length = code === next ? previous + 1 : lengths[code]!;
    if (previous > 0 && next < 4096) lengths[next++] = previous + 1;
    previous = length;
    size += length;
    if (next + earlyChange >= 1 << width && width < 12) width++;
  }
  return size;
}

/** Counts RunLength output: a byte n < 128 copies n + 1 bytes, n > 128 repeats one byte 257 − n times. */
export function runLengthDecodedSize(data: Uint8Array, maxBytes: number): number {
  let size = 0;
  for (let i = 0; i < data.length && size <= maxBytes; ) {
    const n = data[i++]!;
    if (n === 128) break;
    size += n < 128 ? n + 1 : 257 - n;
    i += n < 128 ? n + 1 : 1;
  }
  return size;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

export function decodeAsciiHex(data: Uint8Array): Buffer {
  const out = Buffer.alloc(Math.ceil(data.length / 2));
  let digits = 0;
  for (let i = 0; i < data.length && data[i] !== 0x3e; i++) {
    const value = hexValue(data[i]!);
    if (value < 0) continue; // white space and other bytes are skipped
    out[digits >> 1] = (out[digits >> 1] ?? 0) | (digits % 2 === 0 ? value << 4 : value);
    digits++;
  }
  return out.subarray(0, Math.ceil(digits / 2));
}

export function decodeAscii85(data: Uint8Array): Buffer {
  const out = Buffer.alloc(Math.ceil((data.length * 4) / 5) + 4);
  let length = 0;
  let group = 0;
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i]!;
    if (byte === 0x7e) break; // ~> ends the data
    if (byte === 0x7a && count === 0) {
      length += 4; // z: four zero bytes, already zero in `out`
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group = group * 85 + (byte - 0x21);
    if (++count === 5) {
      out.writeUInt32BE(group >>> 0, length);
      [length, group, count] = [length + 4, 0, 0];
    }
  }
  if (count > 1) {
    for (let pad = count; pad < 5; pad++) group = group * 85 + 84;
    const last = Buffer.alloc(4);
    last.writeUInt32BE(group >>> 0);
    last.copy(out, length, 0, count - 1);
    length += count - 1;
  }
  return out.subarray(0, length);
}

/**
 * The unpacked size of a stream whose data starts at `data` (which may run to the end of the file):
 * the output of its leading ASCII decodings and Flate passes, or of a leading LZW or RunLength. An
 * expanding filter behind LZW or RunLength is not measured (no PDF writer chains them; the thread's
 * memory and time limits still hold).
 */
export async function unpackedSize(data: Uint8Array, filters: readonly PdfFilter[], earlyChange: number, maxBytes: number): Promise<number> {
  let input = data;
  let at = 0;
  for (; filters[at] === 'ASCIIHexDecode' || filters[at] === 'ASCII85Decode'; at++) {
    input = filters[at] === 'ASCIIHexDecode' ? decodeAsciiHex(input) : decodeAscii85(input);
  }
  let passes = 0;
  while (filters[at + passes] === 'FlateDecode') passes++;
  if (passes > 0) return (await inflateWithin(input, { format: 'zlib', passes, maxBytes })).size;
  if (filters[at] === 'LZWDecode') return lzwDecodedSize(input, earlyChange, maxBytes);
  if (filters[at] === 'RunLengthDecode') return runLengthDecodedSize(input, maxBytes);
  return 0;
}

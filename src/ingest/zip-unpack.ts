// A ZIP archive's entries read from its central directory with where each one's data starts, and
// unpacked with a ceiling on what they actually inflate to. The sizes a directory declares are
// only a claim (a DOCX can declare 10 KB for a document.xml that inflates to a gigabyte); the
// ceiling here holds whatever they say. ZIP64 archives and encrypted entries are not read.
import { inflateWithin } from './bounded-inflate.js';

export interface ZipDirectoryEntry {
  name: string;
  /** Uncompressed size, as the archive declares it (not trusted). */
  declaredSize: number;
  compressedSize: number;
  /** 0 stored, 8 deflated. */
  method: number;
  encrypted: boolean;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

function endOfDirectory(bytes: Buffer): number {
  // The record is 22 bytes, followed by a comment of up to 65535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}

/** The archive's entries, or undefined when its directory cannot be read. */
export function readZipDirectory(bytes: Buffer): ZipDirectoryEntry[] | undefined {
  const end = bytes.length >= 22 ? endOfDirectory(bytes) : -1;
  if (end < 0) return undefined;
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipDirectoryEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) return undefined;
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      declaredSize: bytes.readUInt32LE(at + 24),
      compressedSize: bytes.readUInt32LE(at + 20),
      method: bytes.readUInt16LE(at + 10),
      encrypted: (bytes.readUInt16LE(at + 8) & 1) === 1,
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + skip;
  }
  return entries;
}

export type UnpackOutcome = { data: Buffer } | { exceeded: true } | { unreadable: string };

/** An entry's contents, unless they inflate to more than maxBytes or cannot be read. */
export async function unpackZipEntry(bytes: Buffer, entry: ZipDirectoryEntry, maxBytes: number): Promise<UnpackOutcome> {
  const header = entry.localHeaderOffset;
  if (entry.encrypted) return { unreadable: 'it is encrypted' };
  if (header + 30 > bytes.length || bytes.readUInt32LE(header) !== LOCAL_HEADER) return { unreadable: 'its ZIP entries cannot be found' };
  const start = header + 30 + bytes.readUInt16LE(header + 26) + bytes.readUInt16LE(header + 28);
  const compressed = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return compressed.length > maxBytes ? { exceeded: true } : { data: compressed };
  if (entry.method !== 8) return { unreadable: 'it is compressed in a way the server does not read' };
  const inflated = await inflateWithin(compressed, { format: 'raw', maxBytes, keep: true });
  if (inflated.exceeded) return { exceeded: true };
  if (inflated.damaged || inflated.output === undefined) return { unreadable: `its part ${entry.name} is damaged` };
  return { data: inflated.output };
}

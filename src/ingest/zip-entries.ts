// The table of contents of a ZIP archive (names and declared sizes), read from its central directory
// without inflating anything: enough to tell a DOCX from another ZIP. Unpacking a DOCX, where the
// declared sizes cannot be trusted, is zip-unpack.ts's work.
import type { unzipSync } from 'fflate';
import { requiredAtFirstUse } from '../required-at-first-use.js';

/** fflate, required at the first archive listed (a start does not load it). */
const fflate = requiredAtFirstUse<{ unzipSync: typeof unzipSync }>('fflate');

export interface ZipEntry {
  name: string;
  /** Uncompressed size, as the archive declares it. */
  size: number;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** The entries of a ZIP archive, or undefined when the bytes are not a readable archive. */
export function listZipEntries(bytes: Uint8Array): ZipEntry[] | undefined {
  if (!isZip(bytes)) return undefined;
  const entries: ZipEntry[] = [];
  try {
    fflate().unzipSync(bytes, {
      filter(file) {
        entries.push({ name: file.name, size: file.originalSize });
        return false; // listed, never inflated
      },
    });
  } catch {
    return undefined;
  }
  return entries;
}

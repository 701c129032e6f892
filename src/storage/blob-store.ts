// Where uploaded files live: a folder under the data folder (an S3-compatible bucket can take its
// place behind the same interface). The server names every stored object itself; nothing a client
// sends becomes part of a path.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface BlobStore {
  /** Stores the bytes under a new key and returns it; the object is complete or absent, never partial. */
  put(bytes: Buffer): Promise<string>;
  /** The bytes stored under a key, or undefined. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  /** Keys are "ab/<uuid>": the first two characters fan objects out over folders. */
  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`Not a blob key: ${key}`);
    return join(this.root, key);
  }

  async put(bytes: Buffer): Promise<string> {
    const id = randomUUID();
    const key = `${id.slice(0, 2)}/${id}`;
    const path = this.path(key);
    await mkdir(join(this.root, id.slice(0, 2)), { recursive: true });
    // Written beside its place, then renamed: a crash or a full disk leaves no half-written object.
    const partial = `${path}.partial`;
    try {
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

export function openBlobStore(dataDir: string): BlobStore {
  return new LocalBlobStore(join(dataDir, 'files'));
}

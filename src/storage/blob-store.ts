// Where uploaded files live: a folder under the data folder (an S3-compatible bucket can take its
// place behind the same interface). The server names every stored object itself; nothing a client
// sends becomes part of a path. Objects never change under their key, so the latest ones written are
// also kept in memory for a while: the pipeline reads each file moments after its upload stored it.
import { randomUUID } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createPrivateFileAsync, makePrivateFolderAsync } from './private-files.js';

export interface BlobStore {
  /** Stores the bytes under a new key and returns it; the object is complete or absent, never partial. */
  put(bytes: Buffer): Promise<string>;
  /** The bytes stored under a key, or undefined. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

/** Bytes of the latest objects kept in memory (the oldest leave first); objects larger are not kept. */
const RECENT_BYTES = 32 * 1024 * 1024;
const RECENT_OBJECT_BYTES = 1024 * 1024;

/** The latest objects written, by key, within a budget of bytes. */
class RecentObjects {
  private readonly objects = new Map<string, Buffer>();
  private bytes = 0;

  keep(key: string, bytes: Buffer): void {
    if (bytes.length > RECENT_OBJECT_BYTES) return;
    this.objects.set(key, bytes);
    this.bytes += bytes.length;
    for (const [oldest, object] of this.objects) {
      if (this.bytes <= RECENT_BYTES) break;
      this.forget(oldest, object);
    }
  }

  get(key: string): Buffer | undefined {
    return this.objects.get(key);
  }

  delete(key: string): void {
    const object = this.objects.get(key);
    if (object !== undefined) this.forget(key, object);
  }

  private forget(key: string, object: Buffer): void {
    this.objects.delete(key);
    this.bytes -= object.length;
  }
}

export class LocalBlobStore implements BlobStore {
  private readonly recent = new RecentObjects();
  /** The fan-out folders known to exist, so that a write does not ask for its folder every time. */
  private readonly folders = new Set<string>();

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
    // Written beside its place, then renamed: a crash or a full disk leaves no half-written object.
    const partial = `${path}.partial`;
    try {
      await this.writeNew(id.slice(0, 2), partial, bytes);
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    // A copy: the caller's buffer may be a slice of a larger one, or be reused.
    this.recent.keep(key, Buffer.from(bytes));
    return key;
  }

  /** Writes a new file in a fan-out folder, making the folder the first time (or again, if it went). */
  private async writeNew(folder: string, path: string, bytes: Buffer): Promise<void> {
    const known = this.folders.has(folder);
    if (!known) {
      await makePrivateFolderAsync(join(this.root, folder));
      this.folders.add(folder);
    }
    try {
      await createPrivateFileAsync(path, bytes);
    } catch (error) {
      if (!known || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.folders.delete(folder);
      await this.writeNew(folder, path, bytes);
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    const path = this.path(key);
    const recent = this.recent.get(key);
    if (recent !== undefined) return recent;
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    this.recent.delete(key);
    await rm(path, { force: true });
  }
}

export function openBlobStore(dataDir: string): BlobStore {
  return new LocalBlobStore(join(dataDir, 'files'));
}

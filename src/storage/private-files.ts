// Files of the data folder hold every organization's data (the database, its backups, uploaded
// originals, the secret key): the server makes them readable by its own user only, 0600, and its
// folders 0700. The mode is set on the open file after creating it, so that no umask (022, or 000
// in some containers) leaves them readable by others; files that exist already are left as they are.
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, open } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/** Makes the folder and any missing parents 0700; folders that exist already are left as they are. */
export function makePrivateFolder(folder: string): void {
  const first = mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (first !== undefined) for (const made of foldersFrom(first, folder)) chmodSync(made, PRIVATE_FOLDER_MODE);
}

/** makePrivateFolder, without blocking the event loop. */
export async function makePrivateFolderAsync(folder: string): Promise<void> {
  const first = await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (first !== undefined) for (const made of foldersFrom(first, folder)) await chmod(made, PRIVATE_FOLDER_MODE);
}

/** The folders mkdir made: the first one it made, then each below it down to the one asked for. */
function foldersFrom(first: string, last: string): string[] {
  const folders = [first];
  const below = relative(first, last);
  if (below !== '') for (const part of below.split(sep)) folders.push(join(folders.at(-1)!, part));
  return folders;
}

/**
 * Creates the file 0600, empty or with the bytes; fails with EEXIST when it exists (flag 'wx'), so
 * that two processes cannot both create it and nothing is overwritten.
 */
export function createPrivateFile(file: string, bytes?: string | Buffer): void {
  const descriptor = openSync(file, 'wx', PRIVATE_FILE_MODE);
  try {
    fchmodSync(descriptor, PRIVATE_FILE_MODE);
    if (bytes !== undefined) writeFileSync(descriptor, bytes);
  } finally {
    closeSync(descriptor);
  }
}

/** createPrivateFile, without blocking the event loop. */
export async function createPrivateFileAsync(file: string, bytes: Buffer): Promise<void> {
  const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

/** Creates the file empty and 0600 unless it exists (then it is left as it is). */
export function createPrivateFileIfMissing(file: string): void {
  try {
    createPrivateFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

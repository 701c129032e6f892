// The server's secret key (for encrypting stored provider secrets): SECRET_KEY when configured,
// otherwise generated on first start and kept in the data folder, readable by the owner only.
// Several processes sharing one PostgreSQL must share the key: set SECRET_KEY for them.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { createPrivateFile, makePrivateFolder } from './storage/private-files.js';

export const SECRET_KEY_FILE = 'secret.key';

export function resolveSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): string {
  if (config.secretKey !== undefined) return config.secretKey;
  const file = join(config.dataDir, SECRET_KEY_FILE);
  makePrivateFolder(config.dataDir);
  try {
    // Fails if the file exists, so two processes starting at once cannot both write one.
    createPrivateFile(file, randomBytes(32).toString('base64url'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

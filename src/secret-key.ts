// The server's secret key (for encrypting stored provider secrets): SECRET_KEY when configured,
// otherwise generated on first start and kept in the data folder, readable by the owner only.
// Several processes sharing one PostgreSQL must share the key: set SECRET_KEY for them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

export const SECRET_KEY_FILE = 'secret.key';

export function resolveSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): string {
  if (config.secretKey !== undefined) return config.secretKey;
  const file = join(config.dataDir, SECRET_KEY_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx' fails if the file exists, so two processes starting at once cannot both write one.
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

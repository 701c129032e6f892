// The `.env` file of the working folder: KEY=value lines (comments, quotes and `export` as dotenv
// reads them), applied under the process environment, so a variable set in the environment wins.
// Only config.ts calls this; nothing else reads configuration.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

type Env = Record<string, string | undefined>;

export const ENV_FILE_NAME = '.env';

/** The variables of `folder/.env`, or none when there is no such file. */
export function readEnvFile(folder: string = process.cwd()): Env {
  let text: string;
  try {
    text = readFileSync(resolve(folder, ENV_FILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read ${resolve(folder, ENV_FILE_NAME)}: ${(error as Error).message}`);
  }
  return parseEnv(text) as Env;
}

/** `env` over the `.env` file: the environment wins, the file fills in what it leaves unset. */
export function withEnvFile(env: Env, folder: string = process.cwd()): Env {
  return { ...readEnvFile(folder), ...env };
}

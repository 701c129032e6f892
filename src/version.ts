// The server's version, read once from package.json (the single place it is written).
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const SERVER_VERSION = packageJson.version;
/** The interface generations this server answers. */
export const API_GENERATIONS = ['v2', 'legacy'] as const;

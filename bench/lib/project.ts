import { fileURLToPath } from 'node:url';

/** The repository's root folder: children run from here, so `dist/` and `node_modules/` resolve. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

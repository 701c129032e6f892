// The SQLite driver for the Node.js running the server. better-sqlite3 13 is built on Node-API 10
// (Node 22.14 and later) and ships its binary inside its npm package; on Node 24 it is the only
// safe one: version 12's statements, built on Node's own addon interface, abort the process when the
// garbage collector frees one outside a JavaScript context (`Assertion failed: (env) != nullptr`).
// Node 20 has no Node-API 10, and loading version 13 there crashes, so it gets version 12, compiled
// from source at install (the optional dependency `better-sqlite3-node20`). Both have the same API.
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

/** The Node-API version better-sqlite3 13 is built for. */
const NODE_API_OF_DRIVER = 10;

export const sqliteDriverPackage =
  Number(process.versions.napi ?? 0) >= NODE_API_OF_DRIVER ? 'better-sqlite3' : 'better-sqlite3-node20';

const require = createRequire(import.meta.url);

/** better-sqlite3's Database constructor, loaded at the first database opened. */
export function sqliteDriver(): typeof SQLite {
  try {
    return require(sqliteDriverPackage) as typeof SQLite;
  } catch (error) {
    if (sqliteDriverPackage === 'better-sqlite3') throw error;
    throw new Error(
      `SQLite on Node.js ${process.versions.node} needs ${sqliteDriverPackage}, compiled at install (python3, make and g++): ` +
        `run \`npm rebuild ${sqliteDriverPackage}\`, or use Node.js 22.14 or later (${(error as Error).message})`,
    );
  }
}

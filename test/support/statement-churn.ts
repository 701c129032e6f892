// Prepares and drops many distinct statements on the embedded database, opened as the server opens
// it, so that the garbage collector frees statements while the process runs; prints the driver used.
// Run as a child process by test/sqlite-driver.test.ts: a driver that cannot free a statement there
// aborts the whole process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { sqliteDriverPackage } from '../../src/db/sqlite-driver.js';

const dataDir = mkdtempSync(join(tmpdir(), 'statement-churn-'));
const database = openDatabase({ dataDir, databaseUrl: undefined });
const STATEMENTS = Number(process.argv[2] ?? 20_000);
for (let i = 0; i < STATEMENTS; i += 1000) {
  // Distinct texts: the statement cache keeps some, the rest become garbage.
  for (let j = i; j < i + 1000; j++) await sql`select ${sql.raw(String(j))} as n`.execute(database.db);
  // A turn of the event loop, where the collector's tasks run outside any JavaScript context.
  await new Promise((resolve) => setImmediate(resolve));
}
await database.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(`${sqliteDriverPackage} prepared ${STATEMENTS} statements`);

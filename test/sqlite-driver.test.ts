// The embedded database on the Node.js running the suite (CI runs it on Node 24): statements freed by
// the garbage collector while the server runs must not abort the process, as better-sqlite3 12 does
// on Node 24 (`Assertion failed: (env) != nullptr` in Statement::~Statement).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sqliteDriverPackage } from '../src/db/sqlite-driver.js';

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 where Node-API 10 is, and version 12 (compiled at install) before it', () => {
    expect(sqliteDriverPackage).toBe(Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20');
  });

  it('frees statements the collector drops without aborting the process', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/statement-churn.ts', '20000'], { encoding: 'utf8' });
    expect({ status: run.status, signal: run.signal, stderr: run.stderr.slice(-2000) }).toEqual({ status: 0, signal: null, stderr: '' });
    expect(run.stdout).toContain(`${sqliteDriverPackage} prepared 20000 statements`);
  }, 60_000);
});

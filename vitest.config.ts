import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // better-sqlite3 is a native module: one process per test file keeps each file's databases apart.
    pool: 'forks',
    // The console, built when stale, for the browser tests (test/browser).
    globalSetup: ['./test/support/console-build.global.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

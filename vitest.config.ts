import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // better-sqlite3 is a native module: one process per test file keeps each file's databases apart.
    pool: 'forks',
    // The console, built when stale, for the browser tests (test/browser).
    globalSetup: ['./test/support/console-build.global.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Server processes the tests start check every answer against its response schema, as the apps
    // of test/support/app.ts do (src/http/response-schema-check.ts).
    env: { RESPONSE_SCHEMA_CHECK: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

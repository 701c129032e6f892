import { defineConfig } from 'vitest/config';

// Files that replace a module (vi.mock) or count what process-wide caches do: each runs in a process
// of its own, as every file did before.
const ownProcess = [
  'test/length-stream-work.test.ts',
  'test/linear-regexp.test.ts',
  'test/metric-patterns.test.ts',
  'test/precompiled-schemas.test.ts',
  'test/tokens-up-to.test.ts',
  'test/tool-patterns.test.ts',
];

export default defineConfig({
  test: {
    // better-sqlite3 is a native module: test files run in child processes, not worker threads.
    pool: 'forks',
    // The console, built when stale, for the browser tests (test/browser); the databases every
    // scratch database is copied from.
    globalSetup: ['./test/support/console-build.global.ts', './test/support/database-templates.global.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Server processes the tests start check every answer against its response schema, as the apps
    // of test/support/app.ts do (src/http/response-schema-check.ts).
    env: { RESPONSE_SCHEMA_CHECK: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ownProcess,
          // The files of a process run one after another on the modules it has loaded and the route
          // schemas it has compiled, instead of loading and compiling them again for each file. Each
          // file still builds its own apps on databases of its own.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ownProcess } },
    ],
  },
});

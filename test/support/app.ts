// Builds the real app, with the configuration loader production uses, on a scratch database.
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createScratchDatabase, type DatabaseKind, type ScratchDatabase } from './databases.js';

export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'correct horse battery staple';

export interface TestApp {
  app: App;
  kind: DatabaseKind;
  scratch: ScratchDatabase;
  /** Closes the app and drops its database. */
  close(): Promise<void>;
}

export async function startTestApp(kind: DatabaseKind, env: Record<string, string> = {}): Promise<TestApp> {
  return startTestAppOn(await createScratchDatabase(kind), kind, env);
}

/** Closes the app but keeps its database, and starts it again there with other settings. */
export async function restartTestApp(previous: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  await previous.app.close();
  return startTestAppOn(previous.scratch, previous.kind, env);
}

/** The configuration a test app runs with on `scratch`, read by production's loader; `env` wins. */
export function testConfig(scratch: ScratchDatabase, env: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: scratch.dataDir,
    ...(scratch.databaseUrl ? { DATABASE_URL: scratch.databaseUrl } : {}),
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: OWNER_EMAIL,
    ADMIN_PASSWORD: OWNER_PASSWORD,
    // The lowest cost the configuration allows keeps logins quick in tests; the scheme is the same.
    PASSWORD_HASH_COST: '10',
    LIMIT_REQUESTS_PER_MINUTE: '100000',
    // Every answer checked against its route's response schema: a mismatch fails the request (a 500).
    RESPONSE_SCHEMA_CHECK: 'true',
    ...env,
  });
}

async function startTestAppOn(scratch: ScratchDatabase, kind: DatabaseKind, env: Record<string, string>): Promise<TestApp> {
  const app = await buildApp(testConfig(scratch, env));
  return {
    app,
    kind,
    scratch,
    close: async () => {
      await app.close();
      await scratch.drop();
    },
  };
}

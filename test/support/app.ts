// Builds the real app, with the configuration loader production uses, on a scratch database.
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createScratchDatabase, type DatabaseKind } from './databases.js';

export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'correct horse battery staple';

export interface TestApp {
  app: App;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export async function startTestApp(kind: DatabaseKind, env: Record<string, string> = {}): Promise<TestApp> {
  const scratch = await createScratchDatabase(kind);
  const config = loadConfig({
    DATA_DIR: scratch.dataDir,
    ...(scratch.databaseUrl ? { DATABASE_URL: scratch.databaseUrl } : {}),
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: OWNER_EMAIL,
    ADMIN_PASSWORD: OWNER_PASSWORD,
    // The lowest cost the configuration allows keeps logins quick in tests; the scheme is the same.
    PASSWORD_HASH_COST: '10',
    LIMIT_REQUESTS_PER_MINUTE: '100000',
    ...env,
  });
  const app = await buildApp(config);
  return {
    app,
    kind,
    close: async () => {
      await app.close();
      await scratch.drop();
    },
  };
}

// The real server for the browser tests: the app as production builds it, on a scratch SQLite
// database, listening on a loopback port, serving the console built into dist/console; a loopback fake
// model (the one the runtime tests use) as the organization's model.
import { startTestApp, OWNER_EMAIL, OWNER_PASSWORD, type TestApp } from '../../support/app.js';
import { createModelConfiguration } from '../../support/ask.js';
import { createUser, type TestUser } from '../../support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from '../../support/fake-openai.js';

export interface ConsoleServer {
  t: TestApp;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The first owner, who signs in through the console with OWNER_EMAIL and OWNER_PASSWORD. */
  email: string;
  password: string;
  /** An owner with an API key, to arrange data through the API. */
  admin: TestUser;
  fake: FakeLlmServer;
  /** The fake model's LLM configuration. */
  modelConfigurationId: number;
  close(): Promise<void>;
}

export async function startConsoleServer(env: Record<string, string> = {}): Promise<ConsoleServer> {
  const fake = await startFakeOpenAi();
  // CONSOLE_DIR: a console built elsewhere than dist/console (CONSOLE_OUT_DIR of its build).
  const consoleDir: Record<string, string> = process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {};
  // Hosts a test's own fakes need are allowed beside the model's.
  const allowedHosts = [fake.host, env.EGRESS_ALLOWED_HOSTS].filter(Boolean).join(',');
  const t = await startTestApp('sqlite', { ...consoleDir, ...env, EGRESS_ALLOWED_HOSTS: allowedHosts });
  const admin = await createUser(t.app, { role: 'owner' });
  const configuration = await createModelConfiguration(admin, fake, { name: 'Fake model' });
  // A test that names the public address (a provider redirects there) has the server listen on its port.
  const port = env.PUBLIC_BASE_URL === undefined ? 0 : Number(new URL(env.PUBLIC_BASE_URL).port);
  const baseUrl = await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    baseUrl,
    email: OWNER_EMAIL,
    password: OWNER_PASSWORD,
    admin,
    fake,
    modelConfigurationId: configuration.id,
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

// The first owner's password hash begun before the app is built (as `serve` begins it): the owner is
// made with that hash, the generated password is the one announced, and a later start leaves it unused.
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { verifyPassword } from '../src/modules/auth/password.js';
import { firstOwnerPassword } from '../src/modules/organizations/first-owner-password.js';
import { testConfig } from './support/app.js';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from './support/databases.js';
import { request } from './support/http.js';

describe('first owner password', () => {
  it('is hashed once, whoever asks first', async () => {
    const password = firstOwnerPassword({ adminPassword: undefined, passwordHashCost: 10 });
    expect(password.generated).toMatch(/^[\w-]{20}$/);
    const first = password.hash();
    expect(password.hash()).toBe(first);
    expect(await verifyPassword(password.generated!, await first)).toBe(true);
  });

  it('is the configured one when ADMIN_PASSWORD is set', async () => {
    const password = firstOwnerPassword({ adminPassword: 'configured password', passwordHashCost: 10 });
    expect(password.generated).toBeUndefined();
    expect(await verifyPassword('configured password', await password.hash())).toBe(true);
  });
});

describe.each(databaseKinds)('first start with the hash begun early (%s)', (kind) => {
  let scratch: ScratchDatabase;
  const apps: App[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await scratch.drop();
  });

  it('makes the owner with the generated password it announces, and a restart makes none', async () => {
    scratch = await createScratchDatabase(kind);
    const config = testConfig(scratch, { ADMIN_EMAIL: 'early@example.com' });
    const password = firstOwnerPassword({ ...config, adminPassword: undefined });
    void password.hash();
    const app = await buildApp({ ...config, adminPassword: undefined }, password);
    apps.push(app);
    expect(app.firstStart).toEqual({ email: 'early@example.com', generatedPassword: password.generated });
    const login = await request(app, 'POST', '/api/v2/auth/login', { email: 'early@example.com', password: password.generated });
    expect(login.status).toBe(200);
    await app.close();
    apps.pop();

    const again = await buildApp(config, firstOwnerPassword(config));
    apps.push(again);
    expect(again.firstStart).toBeUndefined();
  });
});

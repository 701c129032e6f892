// The rate limits of a deployment of several processes: two apps on one PostgreSQL database count
// together, and so do two apps given one Redis. The limit reached across both answers 429 with
// Retry-After on either.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { OWNER_EMAIL, testConfig } from './support/app.js';
import { createScratchDatabase, databaseKinds, type DatabaseKind, type ScratchDatabase } from './support/databases.js';
import { request } from './support/http.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis answers here. CI always runs one (CI=true): there a missing Redis fails, never skips. */
const redisAnswers = await new Promise<boolean>((resolve) => {
  const socket = connect(6379, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});
const withRedis = it.skipIf(!redisAnswers && !process.env.CI);

/** One process of the deployment: the real app with production's configuration loader, on `scratch`. */
function startProcess(scratch: ScratchDatabase, env: Record<string, string>): Promise<App> {
  return buildApp(testConfig(scratch, { WORKER_IN_PROCESS: 'false', LIMIT_REQUESTS_PER_MINUTE: '4', LIMIT_LOGINS_PER_MINUTE: '2', ...env }));
}

const opened: { apps: App[]; scratches: ScratchDatabase[] } = { apps: [], scratches: [] };

async function deployment(kind: DatabaseKind, env: Record<string, string>, shareDatabase: boolean): Promise<[App, App]> {
  const first = await createScratchDatabase(kind);
  const second = shareDatabase ? first : await createScratchDatabase(kind);
  opened.scratches.push(...new Set([first, second]));
  const a = await startProcess(first, env);
  opened.apps.push(a);
  const b = await startProcess(second, env);
  opened.apps.push(b);
  return [a, b];
}

afterEach(async () => {
  for (const app of opened.apps.splice(0)) await app.close();
  for (const scratch of opened.scratches.splice(0)) await scratch.drop();
});

/** Requests with one credential, alternating between the processes: the fifth is over the limit of 4. */
async function expectSharedRequestLimit(a: App, b: App): Promise<void> {
  const token = `not-a-real-token-${randomBytes(6).toString('hex')}`;
  const statuses: number[] = [];
  for (const app of [a, b, a, b]) statuses.push((await request(app, 'GET', '/api/v2/agents', undefined, { token })).status);
  // Counted before the credential is checked: four refusals, then the limit, on either process.
  expect(statuses).toEqual([401, 401, 401, 401]);
  for (const app of [a, b]) {
    const limited = await request(app, 'GET', '/api/v2/agents', undefined, { token });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  }
  // Another credential has a bucket of its own.
  expect((await request(b, 'GET', '/api/v2/agents', undefined, { token: `${token}-other` })).status).toBe(401);
}

/** Wrong passwords from one address, alternating: the third attempt of a limit of 2 is refused. */
async function expectSharedLoginLimit(a: App, b: App): Promise<void> {
  const attempt = (app: App) => request(app, 'POST', '/api/v2/auth/login', { email: OWNER_EMAIL, password: 'not the password at all' });
  expect((await attempt(a)).status).toBe(401);
  expect((await attempt(b)).status).toBe(401);
  const limited = await attempt(a);
  expect(limited.status).toBe(429);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
}

describe.each(databaseKinds.filter((kind) => kind === 'postgres'))('rate limits shared through the database (%s)', (kind) => {
  it('are counted together by two processes on one database', async () => {
    const [a, b] = await deployment(kind, {}, true);
    await expectSharedRequestLimit(a, b);
  });

  it('count login attempts together', async () => {
    const [a, b] = await deployment(kind, {}, true);
    await expectSharedLoginLimit(a, b);
  });
});

describe.each(databaseKinds)('rate limits shared through Redis (%s)', (kind) => {
  // A prefix of this run's own: runs in parallel, or left over from earlier, never share counters.
  const env = () => ({ REDIS_URL, REDIS_KEY_PREFIX: `agent-platform-test:${randomBytes(6).toString('hex')}:` });

  withRedis('are counted together by two processes given one Redis', async () => {
    // Separate databases: Redis alone carries the count.
    const [a, b] = await deployment(kind, env(), false);
    await expectSharedRequestLimit(a, b);
  });

  withRedis('count login attempts together', async () => {
    const [a, b] = await deployment(kind, env(), false);
    await expectSharedLoginLimit(a, b);
  });
});

describe('rate limits on SQLite without Redis', () => {
  it('are counted by the one process', async () => {
    const [a] = await deployment('sqlite', {}, false);
    const token = `not-a-real-token-${randomBytes(6).toString('hex')}`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(a, 'GET', '/api/v2/agents', undefined, { token })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});

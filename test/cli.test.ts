// The command line as a user runs it: a real process, real signals.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { sqliteDriver } from '../src/db/sqlite-driver.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startTestApp, type TestApp } from './support/app.js';
import { startCliServer } from './support/cli-server.js';
import { createScratchDatabase, databaseKinds } from './support/databases.js';

const dataDir = mkdtempSync(join(tmpdir(), 'agent-platform-cli-'));
const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, ADMIN_EMAIL: 'cli@example.com', ADMIN_PASSWORD: 'a password for the cli', LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '10' };
delete env.DATABASE_URL;
const cli = ['--import', 'tsx', 'src/cli.ts'];

function run(args: string[], extraEnv: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...cli, ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('agent-platform command line', () => {
  it('migrate applies the migrations once', () => {
    const first = run(['migrate']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('Applied:');
    const second = run(['migrate']);
    expect(second.stdout).toContain('up to date');
  });

  it('create-api-key prints a key that works, and refuses an unknown user', async () => {
    const created = run(['create-api-key', '--email', 'cli@example.com', '--name', 'deploy']);
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^apk_/);
    const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RESPONSE_SCHEMA_CHECK: 'true' }));
    const reply = await app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: `Bearer ${key}` } });
    expect(reply.json().data.email).toBe('cli@example.com');
    await app.close();

    const unknown = run(['create-api-key', '--email', 'nobody@example.com']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No active user');
    expect(run(['create-api-key']).status).toBe(2);
  });

  it('keeps a generated secret key in the data folder, readable by its owner only', () => {
    const file = join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').length).toBeGreaterThanOrEqual(43);
  });

  it('refuses a bad configuration, listing every problem', () => {
    const result = run(['migrate'], { PORT: 'x', LOG_LEVEL: 'loud' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('LOG_LEVEL');
  });

  it('--version and -v print the version of package.json', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = run([flag], { PORT: 'x' });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  }, 90_000);

  it('an unknown command prints the usage', () => {
    const result = run(['frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: agent-platform');
  });

  it('serve listens, answers, and exits 0 on SIGTERM', async () => {
    const server = await startCliServer(env);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)));
    expect(await fetch(`${server.base}/health`).then((r) => r.json())).toEqual({ status: 'ok' });
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);

  it('the first start without ADMIN_PASSWORD prints a generated password once', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'agent-platform-first-'));
    try {
      const { ADMIN_PASSWORD: _, ...withoutPassword } = env;
      const first = spawnSync(process.execPath, [...cli, 'create-api-key', '--email', 'cli@example.com'], {
        env: { ...withoutPassword, DATA_DIR: fresh },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(first.status, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/password \S{16,}/);
      const again = spawnSync(process.execPath, [...cli, 'create-api-key', '--email', 'cli@example.com'], {
        env: { ...withoutPassword, DATA_DIR: fresh },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(again.stderr).not.toContain('password');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('backup --to copies the database to a new file, and names pg_dump on PostgreSQL', () => {
    const target = join(dataDir, 'backup-copy.sqlite');
    const result = run(['backup', '--to', target]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Backed up the database');
    expect(result.stdout).toContain('secret.key');
    const copy = new (sqliteDriver())(target, { readonly: true });
    expect(copy.prepare('select email from users where email = ?').get('cli@example.com')).toBeDefined();
    copy.close();
    expect(run(['backup', '--to', target]).status).toBe(1);
    expect(run(['backup']).status).toBe(2);
    const postgres = run(['backup', '--to', join(dataDir, 'pg.sqlite')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(postgres.status).toBe(2);
    expect(postgres.stderr).toContain('pg_dump');
  });

  it('reads .env in the working folder; the environment wins over it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-platform-dotenv-'));
    try {
      writeFileSync(join(folder, '.env'), `# settings of this install\nDATA_DIR=${dataDir}\nLOG_LEVEL=loud\nPORT=x\n`);
      const inFolder = (extraEnv: Record<string, string>) =>
        spawnSync(process.execPath, ['--import', pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href, resolve('src/cli.ts'), 'migrate'], {
          cwd: folder,
          env: { ...env, DATA_DIR: undefined, LOG_LEVEL: undefined, ...extraEnv },
          encoding: 'utf8',
          timeout: 60_000,
        });
      const fromFile = inFolder({});
      expect(fromFile.status).toBe(1);
      expect(fromFile.stderr).toContain('LOG_LEVEL');
      expect(fromFile.stderr).toContain('PORT');
      const overridden = inFolder({ LOG_LEVEL: 'warn', PORT: '8081' });
      expect(overridden.status, overridden.stderr).toBe(0);
      // DATA_DIR came from the file: the database already migrated there is found up to date.
      expect(overridden.stdout).toContain('up to date');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('logs one JSON line per request when stdout is not a terminal, and readable lines with LOG_FORMAT=pretty', async () => {
    for (const format of ['json', 'pretty'] as const) {
      const server = spawn(process.execPath, [...cli, 'serve'], { env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...(format === 'pretty' ? { LOG_FORMAT: 'pretty' } : {}) }, stdio: 'pipe' });
      const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
      const lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
      const nextLine = async (test: (line: string) => boolean) => {
        for (;;) {
          const { value, done } = await lines.next();
          if (done) throw new Error('the server stopped before writing the expected line');
          if (test(value)) return value as string;
        }
      };
      // Port 0: the system picks one; the listening line says which.
      const listening = await nextLine((line) => /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(line));
      const port = /127\.0\.0\.1:(\d+)/.exec(listening)![1];
      expect((await fetch(`http://127.0.0.1:${port}/health?token=secret-value`)).status).toBe(200);
      const line = await nextLine((text) => text.includes('/health'));
      expect(line).not.toContain('secret-value');
      if (format === 'json') {
        expect(JSON.parse(line)).toMatchObject({ method: 'GET', url: '/health?token=[redacted]', statusCode: 200, msg: expect.stringMatching(/^GET \/health\?token=\[redacted\] 200 [\d.]+ ms$/) });
        expect(typeof JSON.parse(line).responseTime).toBe('number');
      } else {
        expect(() => JSON.parse(line)).toThrow();
        expect(line).toMatch(/INFO.*GET \/health\?token=\[redacted\] 200 [\d.]+ ms/);
      }
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 90_000);
});

describe.each(databaseKinds)('the way back from a lost owner password, on %s', (kind) => {
  // Set by the tests that start the real app beside the command line.
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
    t = undefined!;
  });

  /** The command line on the test app's database, as an administrator runs it beside the server. */
  function runOn(args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
    const cliEnv: Record<string, string | undefined> = { ...env, DATA_DIR: t.scratch.dataDir, DATABASE_URL: t.scratch.databaseUrl, ADMIN_EMAIL: OWNER_EMAIL, ADMIN_PASSWORD: undefined, ...options.env };
    if (cliEnv.DATABASE_URL === undefined) delete cliEnv.DATABASE_URL;
    return spawnSync(process.execPath, [...cli, ...args], { env: cliEnv, input: options.input ?? '', encoding: 'utf8', timeout: 60_000 });
  }

  async function login(email: string, password: string): Promise<string | undefined> {
    const reply = await t.app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: { email, password } });
    return reply.statusCode === 200 ? (reply.json().data.token as string) : undefined;
  }

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: `Bearer ${token}` } });

  it('reset-password prints a generated password once and ends the sessions of the user', async () => {
    t = await startTestApp(kind, { LIMIT_LOGINS_PER_MINUTE: '1000' });
    const session = (await login(OWNER_EMAIL, OWNER_PASSWORD))!;
    expect((await me(session)).statusCode).toBe(200);

    const reset = runOn(['reset-password', OWNER_EMAIL.toUpperCase()]);
    expect(reset.status, reset.stderr).toBe(0);
    const password = /shown this once\): (\S+)/.exec(reset.stdout)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(12);

    // The running server sees the change at its next request.
    expect((await me(session)).statusCode).toBe(401);
    expect(await login(OWNER_EMAIL, OWNER_PASSWORD)).toBeUndefined();
    expect(await login(OWNER_EMAIL, password)).toBeDefined();
  }, 90_000);

  it('reset-password reads the password from stdin or from a variable named on the command line', async () => {
    t = await startTestApp(kind, { LIMIT_LOGINS_PER_MINUTE: '1000' });
    const piped = runOn(['reset-password', OWNER_EMAIL, '--password-stdin'], { input: 'a password from stdin\n' });
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain('shown this once');
    expect(await login(OWNER_EMAIL, 'a password from stdin')).toBeDefined();

    const named = runOn(['reset-password', OWNER_EMAIL, '--password-env', 'THE_NEW_PASSWORD'], { env: { THE_NEW_PASSWORD: 'a password from a variable' } });
    expect(named.status, named.stderr).toBe(0);
    expect(await login(OWNER_EMAIL, 'a password from a variable')).toBeDefined();
  }, 180_000);

  it('reset-password refuses an unknown e-mail, a short password and an unset variable, changing nothing', async () => {
    t = await startTestApp(kind, { LIMIT_LOGINS_PER_MINUTE: '1000' });
    const unknown = runOn(['reset-password', 'nobody@example.com']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user with e-mail nobody@example.com');
    const short = runOn(['reset-password', OWNER_EMAIL, '--password-stdin'], { input: 'short' });
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    const unset = runOn(['reset-password', OWNER_EMAIL, '--password-env', 'NOT_SET_ANYWHERE']);
    expect(unset.status).toBe(1);
    expect(unset.stderr).toContain('NOT_SET_ANYWHERE is not set');
    expect(runOn(['reset-password']).status).toBe(2);
    expect(await login(OWNER_EMAIL, OWNER_PASSWORD)).toBeDefined();
  }, 180_000);

  it('create-owner makes the deactivated owner an active owner again, and a new address a new owner', async () => {
    t = await startTestApp(kind, { LIMIT_LOGINS_PER_MINUTE: '1000' });
    const first = (await login(OWNER_EMAIL, OWNER_PASSWORD))!;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${first}` },
      payload: { email: 'second@example.com', role: 'owner', password: 'the second owner password' },
    });
    expect(created.statusCode).toBe(201);
    const second = (await login('second@example.com', 'the second owner password'))!;
    const firstId = (await me(first)).json().data.id as number;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${firstId}`, headers: { authorization: `Bearer ${second}` } })).statusCode).toBe(200);
    expect(await login(OWNER_EMAIL, OWNER_PASSWORD)).toBeUndefined();
    // A deactivated user's password is not reset: create-owner is the way back for them.
    const refused = runOn(['reset-password', OWNER_EMAIL]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('create-owner');

    // ADMIN_EMAIL and ADMIN_PASSWORD, as on the first start.
    const restored = runOn(['create-owner'], { env: { ADMIN_PASSWORD: 'the owner is back again' } });
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`${OWNER_EMAIL} is an active owner again`);
    const back = (await login(OWNER_EMAIL, 'the owner is back again'))!;
    expect((await me(back)).json().data).toMatchObject({ id: firstId, role: 'owner', is_active: true });

    const added = runOn(['create-owner', '--email', 'Third@Example.com']);
    expect(added.status, added.stderr).toBe(0);
    const password = /shown this once\): (\S+)/.exec(added.stdout)![1]!;
    const third = (await me((await login('third@example.com', password))!)).json().data;
    expect(third).toMatchObject({ role: 'owner', organization: { id: (await me(back)).json().data.organization.id } });
  }, 180_000);

  it('create-owner on an empty database makes the organization and its owner, as the first start does', async () => {
    const fresh = await createScratchDatabase(kind);
    try {
      const cliEnv: Record<string, string | undefined> = { ...env, DATA_DIR: fresh.dataDir, DATABASE_URL: fresh.databaseUrl, ADMIN_EMAIL: 'first@example.com', ADMIN_PASSWORD: undefined };
      if (cliEnv.DATABASE_URL === undefined) delete cliEnv.DATABASE_URL;
      const result = spawnSync(process.execPath, [...cli, 'create-owner'], { env: cliEnv, encoding: 'utf8', timeout: 60_000 });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain('Created the organization and its owner first@example.com');
      const password = /shown this once\): (\S+)/.exec(result.stdout)![1]!;
      const app = await buildApp(loadConfig({ DATA_DIR: fresh.dataDir, ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}), LOG_LEVEL: 'silent' }));
      try {
        const reply = await app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: { email: 'first@example.com', password } });
        expect(reply.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await fresh.drop();
    }
  }, 90_000);
});

// The command line as a user runs it: a real process, real signals.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

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
    const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
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

  it('an unknown command prints the usage', () => {
    const result = run(['frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: agent-platform');
  });

  it('serve listens, answers, and exits 0 on SIGTERM', async () => {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    const server = spawn(process.execPath, [...cli, 'serve'], { env: { ...env, PORT: String(port) }, stdio: 'pipe' });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    let health: unknown;
    // Generous: on a loaded CI machine, starting through tsx can take many seconds.
    for (let attempt = 0; attempt < 600 && health === undefined && server.exitCode === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.json(), () => undefined);
    }
    expect(health).toEqual({ status: 'ok' });
    server.kill('SIGTERM');
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
});

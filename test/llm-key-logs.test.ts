// A provider key never reaches the log: the real server, run as a process with the most verbose log,
// is given a key, asked to use it against a fake provider that echoes it back in its error, and sent
// it in requests that fail validation; its whole output is then searched for the key.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerKeepingOutput } from './support/cli-server.js';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from './support/databases.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

const KEY = 'sk-log-probe-9f8e7d6c5b4a3928171605f4e3d2c1b0';
const EMAIL = 'keys@example.com';
const PASSWORD = 'a password for the key test';

describe.each(databaseKinds)('provider keys and the log (%s)', (kind) => {
  let scratch: ScratchDatabase;
  let fake: FakeLlmServer;
  let server: { child: ChildProcess; base: string };
  const output: string[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    scratch = await createScratchDatabase(kind);
    server = await startServerKeepingOutput(
      {
        DATA_DIR: scratch.dataDir,
        // Empty means the embedded SQLite database, whatever DATABASE_URL the suite runs with.
        DATABASE_URL: scratch.databaseUrl ?? '',
        ADMIN_EMAIL: EMAIL,
        ADMIN_PASSWORD: PASSWORD,
        PASSWORD_HASH_COST: '10',
        LOG_LEVEL: 'trace',
        LOG_FORMAT: 'json',
        EGRESS_ALLOWED_HOSTS: fake.host,
      },
      output,
    );
  });
  afterAll(async () => {
    if (server) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    await fake?.close();
    await scratch?.drop();
  });

  it('writes no trace of the key, whatever happens to the requests that carry or use it', async () => {
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const response = await fetch(`${server.base}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const token = (await call('POST', '/api/v2/auth/login', { email: EMAIL, password: PASSWORD })).body.data.token as string;
    const orgId = (await call('GET', '/api/v2/users/me', undefined, token)).body.data.organization_id as number;
    const path = `/api/v2/organizations/${orgId}/llm-configurations`;

    const made = await call('POST', path, { name: 'Probe', provider: 'openai_compatible', model: 'm', base_url: fake.baseUrl, api_key: KEY }, token);
    expect(made.status).toBe(201);
    fake.failNext(401, { message: `Incorrect API key provided: ${KEY}` });
    expect((await call('POST', `${path}/${made.body.data.id}/test`, undefined, token)).body.data).toMatchObject({ ok: false, error_class: 'auth' });
    fake.failNext(500, { message: `internal error while using ${KEY}` });
    expect((await call('POST', `${path}/${made.body.data.id}/test`, undefined, token)).body.data).toMatchObject({ ok: false, error_class: 'bad_response' });
    expect((await call('POST', path, { name: 'Bad', provider: 'nope', model: 'm', api_key: KEY }, token)).status).toBe(400);
    expect((await call('PUT', `${path}/${made.body.data.id}`, `{"api_key": "${KEY}", `, token)).status).toBe(400);
    expect((await call('PUT', `${path}/${made.body.data.id}?api_key=${KEY}`, { api_key: KEY }, token)).status).toBe(200);
    expect(fake.chatRequests().at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    const log = output.join('');
    expect(log).toContain(`${path}/${made.body.data.id}/test`);
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(KEY.slice(3, 30));
  });
});

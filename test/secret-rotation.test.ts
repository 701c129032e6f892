// Provider keys sealed with the server's secret key, and the rotation of that key: values sealed with
// a former key (SECRET_KEY_PREVIOUS) still open, are sealed again with the current key when next
// written, and all at once by `agent-platform reseal-secrets`; a value no known key opens leaves its
// configuration readable while calls with it fail saying why.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { DamagedSecret, SecretBox, UnknownSealingKey, keyHint } from '../src/secrets/secret-box.js';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { FAKE_LLM_KEY, startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { createUser, firstOrganizationId, type TestUser } from './support/factories.js';
import { client } from './support/http.js';

const KEY_A = 'a'.repeat(20) + '-first-secret-key-of-the-server';
const KEY_B = 'b'.repeat(20) + '-second-secret-key-of-the-server';
const KEY_C = 'c'.repeat(20) + '-a-key-that-sealed-nothing-here';

describe('the secret box', () => {
  it('opens what it sealed, names the key, and authenticates the value', () => {
    const box = new SecretBox(KEY_A);
    const sealed = box.seal('sk-live-secret');
    expect(sealed.sealed).not.toContain('sk-live-secret');
    expect(sealed.keyId).toBe(box.currentKeyId);
    expect(box.seal('sk-live-secret').sealed).not.toBe(sealed.sealed);
    expect(box.open(sealed)).toBe('sk-live-secret');
    const tampered = { ...sealed, sealed: sealed.sealed.slice(0, -2) + (sealed.sealed.endsWith('A') ? 'BB' : 'AA') };
    expect(() => box.open(tampered)).toThrow(DamagedSecret);
    // Relabelling a value with another known key's id does not open it either.
    const rotated = new SecretBox(KEY_B, [KEY_A]);
    expect(() => rotated.open({ sealed: sealed.sealed, keyId: rotated.currentKeyId })).toThrow(DamagedSecret);
  });

  it('opens values of former keys, re-seals them with the current one, and says when no key it has sealed a value', () => {
    const sealed = new SecretBox(KEY_A).seal('sk-old');
    const rotated = new SecretBox(KEY_B, [KEY_A]);
    expect(rotated.open(sealed)).toBe('sk-old');
    expect(rotated.isStale(sealed.keyId)).toBe(true);
    const fresh = rotated.reseal(sealed);
    expect(fresh.keyId).toBe(rotated.currentKeyId);
    expect(new SecretBox(KEY_B).open(fresh)).toBe('sk-old');
    expect(() => new SecretBox(KEY_C).open(sealed)).toThrow(UnknownSealingKey);
    expect(() => new SecretBox(KEY_C).open(sealed)).toThrow('sealed with a secret key this server does not have');
  });

  it('reads former keys from SECRET_KEY_PREVIOUS, each at least 32 characters long', () => {
    expect(loadConfig({ SECRET_KEY: KEY_B, SECRET_KEY_PREVIOUS: ` ${KEY_A}, ${KEY_C} ` }).secretKeyPrevious).toEqual([KEY_A, KEY_C]);
    expect(loadConfig({}).secretKeyPrevious).toEqual([]);
    expect(() => loadConfig({ SECRET_KEY_PREVIOUS: `${KEY_A},too-short` })).toThrow(/SECRET_KEY_PREVIOUS/);
  });

  it('hints at a key by its first three and last four characters', () => {
    expect(keyHint('sk-proj-abcdefghijklmnopqrstuvwxyz0123')).toBe('sk-…0123');
    expect(keyHint('short')).not.toContain('short');
  });
});

describe.each(databaseKinds)('rotating the secret key (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let path: string;
  const env = (secretKey: string, previous?: string) => ({
    EGRESS_ALLOWED_HOSTS: fake.host,
    SECRET_KEY: secretKey,
    ...(previous ? { SECRET_KEY_PREVIOUS: previous } : {}),
  });
  const restart = async (secretKey: string, previous?: string) => {
    t = await restartTestApp(t, env(secretKey, previous));
    owner = { ...owner, api: client(t.app, owner.token) };
  };
  const keyIdOf = async (id: number) =>
    (await t.app.database.db.selectFrom('llm_configurations').select('api_key_key_id').where('id', '=', id).executeTakeFirstOrThrow()).api_key_key_id;
  const add = async (name: string) =>
    (await owner.api.post(path, { name, provider: 'openai_compatible', model: 'fake-model', base_url: fake.baseUrl, api_key: FAKE_LLM_KEY })).body.data.id as number;
  const test = async (id: number) => (await owner.api.post(`${path}/${id}/test`)).body.data;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, env(KEY_A));
    const orgId = await firstOrganizationId(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    path = `/api/v2/organizations/${orgId}/llm-configurations`;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('opens keys sealed with a former key, re-seals one when its configuration is next written, and all by reseal-secrets', async () => {
    const written = await add('Written after rotation');
    const resealed = await add('Re-sealed by the command');
    const keyIdA = await keyIdOf(written);

    await restart(KEY_B, KEY_A);
    expect(await test(written)).toMatchObject({ ok: true });
    expect(fake.chatRequests().at(-1)!.headers.authorization).toBe(`Bearer ${FAKE_LLM_KEY}`);
    expect(await keyIdOf(written)).toBe(keyIdA);
    expect((await owner.api.put(`${path}/${written}`, { context_window: 2048 })).status).toBe(200);
    const keyIdB = await keyIdOf(written);
    expect(keyIdB).not.toBe(keyIdA);
    expect(await keyIdOf(resealed)).toBe(keyIdA);

    // The command line, as an administrator runs it, on the same database with the same keys.
    const cliEnv: Record<string, string | undefined> = { ...process.env, DATA_DIR: t.scratch.dataDir, DATABASE_URL: t.scratch.databaseUrl, SECRET_KEY: KEY_B, SECRET_KEY_PREVIOUS: KEY_A, LOG_LEVEL: 'silent' };
    if (cliEnv.DATABASE_URL === undefined) delete cliEnv.DATABASE_URL;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'reseal-secrets'], {
      env: cliEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Re-sealed 1 key(s); 1 already sealed with the current key.');
    expect(await keyIdOf(resealed)).toBe(keyIdB);

    // The former key retired: both keys still open.
    await restart(KEY_B);
    expect(await test(written)).toMatchObject({ ok: true });
    expect(await test(resealed)).toMatchObject({ ok: true });
  });

  it('reads a configuration whose key no known secret key opens; calls with it fail saying why', async () => {
    const id = await add('Sealed under B');
    await restart(KEY_C);
    const read = await owner.api.get(`${path}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.api_key_hint).toBe('sk-…mnop');
    const before = fake.chatRequests().length;
    const result = await test(id);
    expect(result).toMatchObject({ ok: false, error_class: 'auth' });
    expect(result.message).toContain('sealed with a secret key this server does not have');
    expect(fake.chatRequests().length).toBe(before);
    const resolved = await t.app.services.llm.resolveForAnswering(owner.organizationId, id);
    const failing = resolved!.chatModel.stream({ messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 5, signal: new AbortController().signal });
    const drain = async () => {
      for await (const event of failing) void event;
    };
    await expect(drain()).rejects.toMatchObject({ errorClass: 'auth' });
  });
});

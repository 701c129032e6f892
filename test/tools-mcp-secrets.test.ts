// An MCP server tool's sealed headers through a rotation of the secret key: opened with the former key,
// re-sealed with the current one by reseal-secrets (its function, as the command runs it), and still sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resealSecrets } from '../src/modules/llm/reseal-cli.js';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startStreamableMcpServer, type FakeMcpServer } from './support/fake-mcp.js';
import { client } from './support/http.js';

const KEY_A = 'a'.repeat(20) + '-first-secret-key-of-the-server';
const KEY_B = 'b'.repeat(20) + '-second-secret-key-of-the-server';
const WORKSPACE_KEY = 'workspace-key-0123456789abcdef';

describe.each(databaseKinds)('MCP server tool headers across a key rotation (%s)', (kind) => {
  let t: TestApp;
  let server: FakeMcpServer;
  let owner: TestUser;
  const env = (secretKey: string, previous?: string) => ({ EGRESS_ALLOWED_HOSTS: server.host, SECRET_KEY: secretKey, ...(previous ? { SECRET_KEY_PREVIOUS: previous } : {}) });
  const restart = async (secretKey: string, previous?: string) => {
    t = await restartTestApp(t, env(secretKey, previous));
    owner = { ...owner, api: client(t.app, owner.token) };
  };

  beforeAll(async () => {
    server = await startStreamableMcpServer();
    t = await startTestApp(kind, env(KEY_A));
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('sends the headers sealed under a former key, and re-seals them with the current one', async () => {
    const path = `/api/v2/organizations/${owner.organizationId}/tools`;
    const made = await owner.api.post(`${path}/mcp`, { name: 'crm', config: { url: server.url, headers: { 'X-Workspace': WORKSPACE_KEY }, tools: ['request_headers'] } });
    expect(made.status, made.text).toBe(201);
    const keyIdOf = async () => (await t.app.database.db.selectFrom('tools').select('headers_key_id').where('id', '=', made.body.data.id).executeTakeFirstOrThrow()).headers_key_id;
    const sentHeader = async () => {
      const ran = await owner.api.post(`${path}/${made.body.data.id}/test`, { input: {} });
      expect(ran.body.data.status, ran.text).toBe('ok');
      return server.requests.at(-1)!['x-workspace'];
    };
    const keyIdA = await keyIdOf();

    await restart(KEY_B, KEY_A);
    expect(await sentHeader()).toBe(WORKSPACE_KEY);
    const summary = await resealSecrets(t.app.config);
    expect(summary.unreadableTools).toEqual([]);
    expect(await keyIdOf()).not.toBe(keyIdA);

    await restart(KEY_B);
    expect(await sentHeader()).toBe(WORKSPACE_KEY);
  });
});

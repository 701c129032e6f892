// Local (stdio) MCP servers as tools: only a command the operator lists in MCP_STDIO_COMMANDS, named
// exactly, runs; the fixture server (made with the official SDK) is listed and called over stdio.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./fixtures/mcp-stdio-server.mjs', import.meta.url));
const NODE = process.execPath;

describe.each(databaseKinds)('local MCP server tools (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let path: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { MCP_STDIO_COMMANDS: NODE });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${owner.organizationId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(() => t?.close());

  it('lists the tools of a listed command’s server and test-runs one over stdio', async () => {
    const made = await owner.api.post(`${path}/mcp`, { name: 'local_tools', config: { command: NODE, args: [SERVER_SCRIPT] } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.remote_tools).toMatchObject({ transport: 'stdio', tools: [{ name: 'shout', function_name: 'local_tools__shout', problem: null }] });
    const ran = await owner.api.post(`${path}/${made.body.data.id}/test`, { input: { text: 'quiet please' } });
    expect(ran.body.data).toMatchObject({ status: 'ok', output: 'QUIET PLEASE' });
  });

  it('refuses a command that is not listed exactly, and what only a remote server takes', async () => {
    for (const command of ['node', `${NODE} `, `${NODE}x`]) {
      const refused = await owner.api.post(`${path}/mcp`, { name: 'unlisted', config: { command, args: [SERVER_SCRIPT] } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.map((detail: any) => detail.pointer)).toEqual(['/body/config/command']);
    }
    const withSecret = await owner.api.post(`${path}/mcp`, { name: 'with_secret', config: { command: NODE, args: [SERVER_SCRIPT], headers: { 'X-Key': 'k' } }, secret: 'token-123' });
    expect(withSecret.body.error.details.map((detail: any) => detail.pointer)).toEqual(['/body/config/headers', '/body/secret']);
  });

  it('runs no local server when the operator lists none (the default)', async () => {
    const plain = await startTestApp(kind);
    try {
      const other = await createUser(plain.app, { organizationId: await createOrganization(plain.app), role: 'owner' });
      await other.api.put('/api/v2/feature-flags/api-tools', { enabled: true });
      const refused = await other.api.post(`/api/v2/organizations/${other.organizationId}/tools/mcp`, { name: 'local', config: { command: NODE, args: [SERVER_SCRIPT] } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0]).toMatchObject({ pointer: '/body/config/command', message: expect.stringContaining('MCP_STDIO_COMMANDS') });
    } finally {
      await plain.close();
    }
  });
});

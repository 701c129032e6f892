import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAGS, FLAG_NAMES } from '../src/modules/flags/feature-flags.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('feature flags (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    member = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(() => t.close());

  it('lists the eleven flags of the catalogue with their defaults', async () => {
    const reply = await member.api.get('/api/v2/feature-flags');
    expect(reply.status).toBe(200);
    const items = reply.body.data.items;
    expect(items.map((flag: { flag: string }) => flag.flag)).toEqual(FLAG_NAMES);
    expect(items).toHaveLength(11);
    for (const item of items) {
      const definition = FEATURE_FLAGS[item.flag as keyof typeof FEATURE_FLAGS];
      expect(item).toEqual({ flag: item.flag, enabled: definition.default, default_enabled: definition.default, summary: definition.summary, gates: definition.gates, modified_on: null, modified_by: null });
    }
  });

  it.each(FLAG_NAMES)('GET /api/v2/feature-flags/%s reads one flag', async (flag) => {
    const reply = await member.api.get(`/api/v2/feature-flags/${flag}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ flag, enabled: FEATURE_FLAGS[flag].default });
  });

  it('admins turn a flag on and off for their organization only; members may not (403)', async () => {
    const on = await admin.api.put('/api/v2/feature-flags/video-index', { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ flag: 'video-index', enabled: true, default_enabled: false, modified_by: admin.email });
    expect((await member.api.get('/api/v2/feature-flags/video-index')).body.data.enabled).toBe(true);
    expect((await stranger.api.get('/api/v2/feature-flags/video-index')).body.data.enabled).toBe(false);
    const refused = await member.api.put('/api/v2/feature-flags/video-index', { enabled: false });
    expect(refused.status).toBe(403);
    expect((await member.api.get('/api/v2/feature-flags/video-index')).body.data.enabled).toBe(true);
    expect((await admin.api.put('/api/v2/feature-flags/video-index', { enabled: false })).body.data.enabled).toBe(false);
  });

  it('400 for an unknown flag or a body that is no boolean', async () => {
    const unknown = await admin.api.put('/api/v2/feature-flags/time-travel', { enabled: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].pointer).toBe('/params/flag');
    expect((await admin.api.put('/api/v2/feature-flags/guardrail', { enabled: 'yes' })).status).toBe(400);
    expect((await admin.api.put('/api/v2/feature-flags/guardrail', {})).status).toBe(400);
    expect((await admin.api.get('/api/v2/feature-flags/time-travel')).status).toBe(404);
  });

  it('developer-portal off: creating API keys is 403; the keys there are keep working', async () => {
    expect((await admin.api.put('/api/v2/feature-flags/developer-portal', { enabled: false })).status).toBe(200);
    try {
      const refused = await member.api.post('/api/v2/auth/api-keys', { name: 'blocked' });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('developer-portal');
      expect((await member.api.get('/api/v2/auth/api-keys')).body.data.items.map((key: { name: string }) => key.name)).not.toContain('blocked');
      expect((await member.api.get('/api/v2/users/me')).status).toBe(200);
      expect((await stranger.api.post('/api/v2/auth/api-keys', { name: 'elsewhere' })).status).toBe(201);
    } finally {
      await admin.api.put('/api/v2/feature-flags/developer-portal', { enabled: true });
    }
    expect((await member.api.post('/api/v2/auth/api-keys', { name: 'allowed' })).status).toBe(201);
  });

  it('require() is what other modules call: 403 while a flag is off', async () => {
    const actor = { organizationId: member.organizationId };
    await expect(t.app.services.flags.require(actor, 'api-tools')).rejects.toMatchObject({ status: 403, code: 'feature_disabled' });
    await expect(t.app.services.flags.require(actor, 'share-agent')).resolves.toBeUndefined();
  });
});

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';
import { multipartFile, pngBytes } from './support/people.js';

const LOGO_LIMIT = 4096;

describe.each(databaseKinds)('organizations (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { LIMIT_LOGO_BYTES: String(LOGO_LIMIT) });
    owner = await createUser(t.app, { role: 'owner' });
    admin = await createUser(t.app, { role: 'admin' });
    member = await createUser(t.app, { role: 'member' });
    org = `/api/v2/organizations/${owner.organizationId}`;
  });
  afterAll(() => t.close());

  const uploadLogo = (user: TestUser, file: ReturnType<typeof multipartFile>) => request(t.app, 'PUT', `${org}/logo`, undefined, { token: user.token, ...file });
  const storedFiles = () => readdirSync(join(t.app.config.dataDir, 'files'), { recursive: true }).map(String).filter((name) => name.includes('-'));

  describe('the organization', () => {
    it('everyone reads it; admins change name and description; server-owned fields are ignored', async () => {
      const read = await member.api.get(org);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: owner.organizationId, name: 'Default organization', description: '', logo_url: null, modified_by: null });
      const changed = await admin.api.put(org, { name: 'Acme', description: 'Makers of everything', id: 77, logo_key: '../../etc/passwd' });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ id: owner.organizationId, name: 'Acme', description: 'Makers of everything', logo_url: null, modified_by: admin.email });
      expect((await member.api.put(org, { name: 'Mine' })).status).toBe(403);
      expect((await member.api.get(org)).body.data.name).toBe('Acme');
    });

    it('400 for a blank name or a bad id', async () => {
      expect((await owner.api.put(org, { name: '  ' })).status).toBe(400);
      expect((await owner.api.get('/api/v2/organizations/abc')).status).toBe(400);
    });

    it('another organization id is a 404, even for an owner', async () => {
      expect((await owner.api.get('/api/v2/organizations/987654')).status).toBe(404);
      expect((await owner.api.put('/api/v2/organizations/987654', { name: 'x' })).status).toBe(404);
    });

    it('lists its users', async () => {
      const reply = await member.api.get(`${org}/users?page_size=100`);
      expect(reply.status).toBe(200);
      expect(reply.body.data.items.map((user: { id: number }) => user.id)).toEqual(expect.arrayContaining([owner.id, admin.id, member.id]));
      expect(reply.text).not.toMatch(/password_hash|scrypt/);
    });
  });

  describe('logo', () => {
    it('404 before there is one', async () => {
      const reply = await member.api.get(`${org}/logo`);
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
    });

    const images: [string, Buffer][] = [
      ['image/png', pngBytes()],
      ['image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)])],
      ['image/gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)])],
      ['image/webp', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(32)])],
    ];
    it.each(images)('%s is recognised from its bytes, whatever the name and header say, and served back', async (type, bytes) => {
      const reply = await uploadLogo(admin, multipartFile(bytes, { filename: 'logo.txt', contentType: 'text/plain' }));
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual({ logo_url: `${org}/logo`, logo_content_type: type, size: bytes.length });
      const served = await t.app.inject({ method: 'GET', url: `${org}/logo`, headers: { authorization: `Bearer ${member.token}` } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);
      expect((await member.api.get(org)).body.data).toMatchObject({ logo_url: `${org}/logo`, logo_content_type: type });
    });

    it('replacing the logo removes the old image', async () => {
      await uploadLogo(owner, multipartFile(pngBytes(10)));
      const before = storedFiles();
      expect(before).toHaveLength(1);
      await uploadLogo(owner, multipartFile(pngBytes(20)));
      const after = storedFiles();
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(before[0]);
    });

    it('uploads at once leave one stored image, the one recorded', async () => {
      await Promise.all([1, 2, 3, 4].map((n) => uploadLogo(owner, multipartFile(pngBytes(n)))));
      expect(storedFiles()).toHaveLength(1);
      const served = await t.app.inject({ method: 'GET', url: `${org}/logo`, headers: { authorization: `Bearer ${member.token}` } });
      expect(served.statusCode).toBe(200);
    });

    it('415 for content that is no image, even named and typed as one; the logo stays', async () => {
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      for (const bytes of [html, svg]) {
        const reply = await uploadLogo(owner, multipartFile(bytes, { filename: 'logo.png', contentType: 'image/png' }));
        expect(reply.status).toBe(415);
        expect(reply.body.error.code).toBe('unsupported_media_type');
      }
      expect((await member.api.get(org)).body.data.logo_content_type).toBe('image/png');
    });

    it('413 above the limit; nothing is stored', async () => {
      const before = storedFiles();
      const reply = await uploadLogo(owner, multipartFile(pngBytes(LOGO_LIMIT + 1)));
      expect(reply.status).toBe(413);
      expect(reply.body.error.code).toBe('payload_too_large');
      expect(storedFiles()).toEqual(before);
    });

    it('400 without a multipart body or without a file', async () => {
      expect((await owner.api.put(`${org}/logo`, { logo: 'base64' })).status).toBe(400);
      const empty = multipartFile(Buffer.alloc(0));
      expect((await uploadLogo(owner, empty)).status).toBe(400);
    });

    it('members may not upload (403), and the refusal comes before the upload is read', async () => {
      const reply = await uploadLogo(member, multipartFile(pngBytes(LOGO_LIMIT * 4)));
      expect(reply.status).toBe(403);
    });
  });

  describe('configurations', () => {
    const configurations = () => `${org}/configurations`;

    it('404 for the active one while none is', async () => {
      const reply = await member.api.get(`${configurations()}/active`);
      expect(reply.status).toBe(404);
      expect(reply.body.message).toBe('Active configuration not found');
    });

    it('creates, lists, updates; one is active at a time', async () => {
      const first = await admin.api.post(configurations(), { name: 'Default', settings: { theme: 'light', retention_days: 30 } });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ name: 'Default', settings: { theme: 'light', retention_days: 30 }, is_active: false, activated_on: null, created_by: admin.email });
      const second = await admin.api.post(configurations(), { name: 'Strict', settings: { retention_days: 7 }, activate: true });
      expect(second.body.data.is_active).toBe(true);
      expect((await member.api.get(`${configurations()}/active`)).body.data.id).toBe(second.body.data.id);

      const activated = await owner.api.post(`${configurations()}/${first.body.data.id}/activate`);
      expect(activated.status).toBe(200);
      expect(activated.body.data.is_active).toBe(true);
      const list = (await member.api.get(configurations())).body.data;
      expect(list.total).toBe(2);
      expect(list.items.filter((c: { is_active: boolean }) => c.is_active).map((c: { id: number }) => c.id)).toEqual([first.body.data.id]);

      // Activating the active one again keeps it active.
      const again = await owner.api.post(`${configurations()}/${first.body.data.id}/activate`);
      expect(again.body.data.activated_on).toBe(activated.body.data.activated_on);

      const updated = await admin.api.put(`${configurations()}/${second.body.data.id}`, { settings: { retention_days: 1 } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'Strict', settings: { retention_days: 1 }, is_active: false, modified_by: admin.email });
    });

    it('409 for a name in use; 400 for settings that are no object; nothing created', async () => {
      const before = (await admin.api.get(configurations())).body.data.total;
      expect((await admin.api.post(configurations(), { name: 'Default' })).status).toBe(409);
      expect((await admin.api.post(configurations(), { name: 'Array', settings: [1, 2] })).status).toBe(400);
      expect((await admin.api.post(configurations(), { name: 'Text', settings: 'x' })).status).toBe(400);
      expect((await admin.api.get(configurations())).body.data.total).toBe(before);
      const [a, b] = (await admin.api.get(configurations())).body.data.items;
      expect((await admin.api.put(`${configurations()}/${a.id}`, { name: b.name })).status).toBe(409);
    });

    it('members read but do not change them; unknown ones are 404', async () => {
      expect((await member.api.post(configurations(), { name: 'Mine' })).status).toBe(403);
      const [first] = (await member.api.get(configurations())).body.data.items;
      expect((await member.api.put(`${configurations()}/${first.id}`, { name: 'Mine' })).status).toBe(403);
      expect((await member.api.post(`${configurations()}/${first.id}/activate`)).status).toBe(403);
      expect((await owner.api.put(`${configurations()}/987654`, { name: 'x' })).status).toBe(404);
      expect((await owner.api.post(`${configurations()}/987654/activate`)).status).toBe(404);
    });
  });

  describe('model deployment', () => {
    it('starts empty, is set per purpose, and null clears a purpose', async () => {
      const empty = await member.api.get(`${org}/model-deployment`);
      expect(empty.body.data).toEqual({ chat: null, embedding: null, image: null, judge: null, modified_on: null, modified_by: null });
      const set = await admin.api.put(`${org}/model-deployment`, { chat: 3, embedding: 4 });
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ chat: 3, embedding: 4, image: null, judge: null, modified_by: admin.email });
      const partial = await owner.api.put(`${org}/model-deployment`, { judge: 5, chat: null });
      expect(partial.body.data).toMatchObject({ chat: null, embedding: 4, image: null, judge: 5, modified_by: owner.email });
    });

    it('400 for a reference that is not a positive integer; 403 for members', async () => {
      for (const body of [{ chat: 'gpt' }, { chat: 0 }, { image: 1.5 }]) expect((await admin.api.put(`${org}/model-deployment`, body)).status).toBe(400);
      expect((await member.api.put(`${org}/model-deployment`, { chat: 1 })).status).toBe(403);
      expect((await member.api.get(`${org}/model-deployment`)).body.data.judge).toBe(5);
    });
  });
});

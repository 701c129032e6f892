import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('notifications (%s)', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await createUser(t.app, { role: 'member' });
    bob = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  const notify = (userIds: number[], title: string, organizationId = alice.organizationId) =>
    t.app.services.notifications.notify(organizationId, userIds, { kind: 'document_failed', title, body: `${title} body`, link: '/api/v2/corpora/1' });
  const titles = (reply: { body: { data: { items: { title: string }[] } } }) => reply.body.data.items.map((item) => item.title);

  it('lists the caller’s own, unread first and newest first, and marks them read one by one', async () => {
    await notify([alice.id], 'first');
    await notify([alice.id, bob.id], 'second');
    await notify([alice.id], 'third');
    const listed = await alice.api.get('/api/v2/notifications');
    expect(listed.status).toBe(200);
    expect(titles(listed)).toEqual(['third', 'second', 'first']);
    expect(listed.body.data.items[0]).toMatchObject({ kind: 'document_failed', body: 'third body', link: '/api/v2/corpora/1', is_read: false, read_on: null });
    expect(titles(await bob.api.get('/api/v2/notifications'))).toEqual(['second']);

    const third = listed.body.data.items[0];
    const read = await alice.api.put(`/api/v2/notifications/${third.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: third.id, is_read: true });
    // Read ones go after the unread ones; reading again keeps the first time.
    expect(titles(await alice.api.get('/api/v2/notifications'))).toEqual(['second', 'first', 'third']);
    expect((await alice.api.put(`/api/v2/notifications/${third.id}/read`)).body.data.read_on).toBe(read.body.data.read_on);
    expect(titles(await alice.api.get('/api/v2/notifications?unread=true'))).toEqual(['second', 'first']);
    expect((await alice.api.get('/api/v2/notifications?page_size=1&page=3')).body.data).toMatchObject({ total: 3, items: [expect.objectContaining({ title: 'third' })] });
  });

  it('marks all read at once, and says how many were unread', async () => {
    const reply = await alice.api.put('/api/v2/notifications/read-all');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ updated: 2 });
    expect((await alice.api.put('/api/v2/notifications/read-all')).body.data).toEqual({ updated: 0 });
    expect((await alice.api.get('/api/v2/notifications?unread=true')).body.data.total).toBe(0);
    expect((await bob.api.get('/api/v2/notifications?unread=true')).body.data.total).toBe(1);
  });

  it('another user’s notification is a 404 and stays unread; a bad id is a 400', async () => {
    const bobs = (await bob.api.get('/api/v2/notifications')).body.data.items[0];
    expect((await alice.api.put(`/api/v2/notifications/${bobs.id}/read`)).status).toBe(404);
    expect((await bob.api.get('/api/v2/notifications')).body.data.items[0].is_read).toBe(false);
    expect((await alice.api.put('/api/v2/notifications/x/read')).status).toBe(400);
    expect((await alice.api.get('/api/v2/notifications?unread=maybe')).status).toBe(400);
  });

  it('notify reaches only active users of the organization named', async () => {
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app) });
    const gone = await createUser(t.app);
    await t.app.database.db.updateTable('users').set({ deactivated_on: new Date().toISOString() }).where('id', '=', gone.id).execute();
    expect(await notify([bob.id, stranger.id, gone.id, 987654], 'scoped')).toBe(1);
    expect(await notify([], 'nobody')).toBe(0);
    const rows = await t.app.database.db.selectFrom('notifications').select('user_id').where('title', '=', 'scoped').execute();
    expect(rows.map((row) => row.user_id)).toEqual([bob.id]);
  });
});

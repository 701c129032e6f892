// Files given in a chat thread over HTTP: upload (multipart, several files, text extracted now),
// the list, removal; only the owner gives files, those who see the thread list them, the owner and
// admins remove them; a file that cannot be read refuses the whole request and keeps nothing;
// another person's or organization's thread answers 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createThread } from './support/chat.js';
import { multipartBody, type UploadFile } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { makeDocx, PNG_BYTES } from './support/documents.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

describe.each(databaseKinds)('thread attachments (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let foreigner: TestUser;
  let agentId: number;

  const upload = (user: TestUser, threadId: number, files: UploadFile[]) => {
    const { payload, contentType } = multipartBody(files);
    return request(t.app, 'POST', `/api/v2/threads/${threadId}/attachments`, undefined, { token: user.token, raw: payload, headers: { 'content-type': contentType } });
  };
  const list = (user: TestUser, threadId: number) => user.api.get(`/api/v2/threads/${threadId}/attachments`);
  const remove = (user: TestUser, threadId: number, attachmentId: number) => user.api.delete(`/api/v2/threads/${threadId}/attachments/${attachmentId}`);

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    owner = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'member' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    agentId = (await createAgent(admin)).id;
  });
  afterAll(() => t.close());

  it('takes several files at once, reads their text now, and lists them oldest first', async () => {
    const thread = await createThread(owner, agentId);
    const docx = makeDocx([{ heading: 'Terms' }, { paragraph: 'The tenant pays the rent on the first day of each month.' }]);
    const reply = await upload(owner, thread.id, [
      { name: 'notes.txt', bytes: 'Meeting notes: the budget is 40,000 euros.' },
      { name: '../../etc/lease.docx', bytes: docx },
    ]);
    expect(reply.status).toBe(201);
    const items = reply.body.data.items;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ thread_id: thread.id, filename: 'notes.txt', type: 'txt', characters: 42, created_by: owner.email });
    expect(items[0].size_bytes).toBe(42);
    expect(items[1]).toMatchObject({ filename: 'lease.docx', type: 'docx' });
    expect(items[1].characters).toBeGreaterThan(50);
    expect(Object.keys(items[0]).sort()).toEqual(['characters', 'created_by', 'created_on', 'filename', 'id', 'size_bytes', 'thread_id', 'type']);

    const listed = await list(owner, thread.id);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((item: { id: number }) => item.id)).toEqual(items.map((item: { id: number }) => item.id));
    const stored = await t.app.services.store.repos.attachments.textOf(owner.organizationId, thread.id, items[1].id);
    expect(stored?.text).toContain('The tenant pays the rent');
  });

  it('refuses the whole request when one file cannot be read, and keeps nothing', async () => {
    const thread = await createThread(owner, agentId);
    const image = await upload(owner, thread.id, [
      { name: 'fine.txt', bytes: 'Readable text.' },
      { name: 'photo.png', bytes: PNG_BYTES },
    ]);
    expect(image.status).toBe(415);
    expect(image.body.error.code).toBe('unsupported_media_type');
    expect(image.body.message).toContain('photo.png');

    const empty = await upload(owner, thread.id, [{ name: 'blank.txt', bytes: '   \n  ' }]);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('blank.txt');

    const broken = await upload(owner, thread.id, [{ name: 'broken.docx', bytes: makeDocx([]).subarray(0, 200) }]);
    expect([400, 415]).toContain(broken.status);

    const json = await owner.api.post(`/api/v2/threads/${thread.id}/attachments`, { text: 'not a file' });
    expect(json.status).toBe(415);
    const none = await request(t.app, 'POST', `/api/v2/threads/${thread.id}/attachments`, undefined, {
      token: owner.token,
      raw: multipartBody([], { note: 'no file' }).payload,
      headers: { 'content-type': multipartBody([], {}).contentType },
    });
    expect(none.status).toBe(400);

    expect((await list(owner, thread.id)).body.data.items).toEqual([]);
    expect(await t.app.services.store.repos.attachments.countOfThread(owner.organizationId, thread.id)).toBe(0);
  });

  it('lets only the owner give files; admins see and remove them; anyone else is told the thread does not exist', async () => {
    const thread = await createThread(owner, agentId);
    const given = (await upload(owner, thread.id, [{ name: 'a.txt', bytes: 'Alpha text.' }])).body.data.items[0];

    expect((await upload(other, thread.id, [{ name: 'b.txt', bytes: 'Intruder.' }])).status).toBe(404);
    expect((await list(other, thread.id)).status).toBe(404);
    expect((await remove(other, thread.id, given.id)).status).toBe(404);

    expect((await upload(foreigner, thread.id, [{ name: 'b.txt', bytes: 'Intruder.' }])).status).toBe(404);
    expect((await list(foreigner, thread.id)).status).toBe(404);
    expect((await remove(foreigner, thread.id, given.id)).status).toBe(404);

    const byAdmin = await upload(admin, thread.id, [{ name: 'b.txt', bytes: 'Words in another person’s conversation.' }]);
    expect(byAdmin.status).toBe(403);
    expect((await list(admin, thread.id)).body.data.items).toHaveLength(1);

    // The attachment is found only through its own thread.
    const otherThread = await createThread(owner, agentId);
    expect((await remove(owner, otherThread.id, given.id)).status).toBe(404);
    expect((await remove(owner, thread.id, 999_999)).status).toBe(404);
    expect((await owner.api.delete(`/api/v2/threads/${thread.id}/attachments/zero`)).status).toBe(400);

    const removed = await remove(admin, thread.id, given.id);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: given.id });
    expect((await list(owner, thread.id)).body.data.items).toEqual([]);
    expect((await remove(owner, thread.id, given.id)).status).toBe(404);
  });

  it('answers 404 for a deleted thread and an unknown one', async () => {
    const thread = await createThread(owner, agentId);
    expect((await owner.api.delete(`/api/v2/threads/${thread.id}`)).status).toBe(200);
    expect((await upload(owner, thread.id, [{ name: 'a.txt', bytes: 'Late.' }])).status).toBe(404);
    expect((await list(owner, thread.id)).status).toBe(404);
    expect((await list(owner, 999_999)).status).toBe(404);
  });

  it('attaches files given with an ask through the service, under the same rules', async () => {
    const thread = await createThread(owner, agentId);
    const actor = await t.app.services.auth.authenticate(`Bearer ${owner.token}`);
    const attached = await t.app.services.attachments.attach(actor, thread.id, [{ filename: 'q.md', bytes: Buffer.from('# Question\n\nWhat is the **deadline**?') }]);
    expect(attached[0]).toMatchObject({ filename: 'q.md', type: 'md' });
    const records = await t.app.services.attachments.listForThread(owner.organizationId, thread.id);
    expect(records.map((record) => record.filename)).toEqual(['q.md']);
    expect(await t.app.services.attachments.listForThread(foreigner.organizationId, thread.id)).toEqual([]);
  });
});

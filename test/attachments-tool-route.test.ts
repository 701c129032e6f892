// An attachment tool made and test-run through the HTTP routes, on both databases: a test run has no
// conversation, and says that attachments need one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('attachment tool over HTTP (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
  });
  afterAll(() => t.close());

  it('is made with its settings checked, and its test run says attachments need a conversation', async () => {
    const base = `/api/v2/organizations/${admin.organizationId}/tools/attachment`;
    expect((await admin.api.post(base, { name: 'files', description: 'x', config: { max_characters: 5 } })).status).toBe(400);
    const created = await admin.api.post(base, { name: 'read_files', description: 'Reads the files given in the chat', config: {} });
    expect(created.status).toBe(201);
    expect(created.body.data.config).toEqual({ max_characters: 12_000 });
    const run = await admin.api.post(`/api/v2/organizations/${admin.organizationId}/tools/${created.body.data.id}/test`, { input: {} });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ status: 'error', error: 'Attachments need a conversation: this call has no thread, so there are no files to read' });
    expect((await admin.api.post(`/api/v2/organizations/${admin.organizationId}/tools/${created.body.data.id}/test`, { input: { attachment_id: 'x' } })).status).toBe(400);
  });
});

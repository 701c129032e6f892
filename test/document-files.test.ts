// Every document has an access_url: the address a URL document came from, or the route that serves
// the stored original to whoever may read the corpus, in both generations' representations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../src/modules/documents/original-file.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { createCorpus, uploadFiles, uploadText } from './support/corpora.js';
import { makePdf } from './support/documents.js';

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the full name encoded', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('Café "menu" (1).html')).toBe(`attachment; filename="Caf_ _menu_ (1).html"; filename*=UTF-8''Caf%C3%A9%20%22menu%22%20%281%29.html`);
  });
});

describe.each(databaseKinds)('document originals (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let corpusId: number;
  const pdf = makePdf([['The harbour opens at dawn.']]);

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    corpusId = (await createCorpus(owner)).id;
  });
  afterAll(() => t.close());

  it('an uploaded file is served back byte for byte at its access_url, as an attachment', async () => {
    const upload = await uploadFiles(t.app, owner, corpusId, [{ name: 'harbour.pdf', bytes: pdf }]);
    expect(upload.status).toBe(201);
    const document = upload.body.data.items[0];
    const path = `/api/v2/corpora/${corpusId}/documents/${document.id}/file`;
    expect(document.access_url).toBe(path);
    expect((await owner.api.get(`/api/v2/corpora/${corpusId}/documents/${document.id}`)).body.data.access_url).toBe(path);
    const legacy = (await owner.api.get(`/api/corpus/${corpusId}/document/`)).body;
    expect(legacy.find((row: { id: number }) => row.id === document.id).access_url).toBe(path);

    const file = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${owner.token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('attachment; filename="harbour.pdf"');
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('a text document is served as the text it was given, and every listed document has a string access_url', async () => {
    const document = await uploadText(owner, corpusId, '# Leave\n\nEveryone has 25 days.', { name: 'leave.md' });
    const file = await t.app.inject({ method: 'GET', url: `/api/v2/corpora/${corpusId}/documents/${document.id}/file`, headers: { authorization: `Bearer ${owner.token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('# Leave\n\nEveryone has 25 days.');
    const listed = (await owner.api.get(`/api/corpus/${corpusId}/document/`)).body as { access_url: unknown }[];
    expect(listed.length).toBeGreaterThan(1);
    for (const row of listed) expect(typeof row.access_url).toBe('string');
  });

  it('is refused to whoever may not read the corpus, and gone with a deleted document', async () => {
    const document = await uploadText(owner, corpusId, 'Only for readers of the corpus.', { name: 'private.txt' });
    const path = `/api/v2/corpora/${corpusId}/documents/${document.id}/file`;
    expect((await member.api.get(path)).status).toBe(404);
    expect((await stranger.api.get(path)).status).toBe(404);
    await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: member.id, permission: 'read' });
    expect((await member.api.get(path)).status).toBe(200);
    expect((await owner.api.delete(`/api/v2/corpora/${corpusId}/documents/${document.id}`)).status).toBe(200);
    expect((await owner.api.get(path)).status).toBe(404);
  });
});

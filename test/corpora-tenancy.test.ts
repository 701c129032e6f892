// Every corpus route answers 404 to another organization, and to a colleague without a permission
// on the corpus; search gives them nothing; nothing of the corpus changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadFiles, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

describe.each(databaseKinds)('corpora are private (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let corpusId: number;
  let documentId: number;
  let agentId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(owner, { name: 'Secret corpus' })).id;
    documentId = (await uploadText(owner, corpusId, 'The launch code is swordfish.')).id;
    await waitForProcessing(owner, corpusId, [documentId]);
    agentId = (await createAgent(owner)).id;
    await owner.api.post(`/api/v2/corpora/${corpusId}/agents`, { agent_id: agentId });
  });
  afterAll(() => t.close());

  const routes = (): [string, string, unknown?][] => [
    ['GET', `/api/v2/corpora/${corpusId}`],
    ['PUT', `/api/v2/corpora/${corpusId}`, { name: 'Taken over' }],
    ['DELETE', `/api/v2/corpora/${corpusId}`],
    ['GET', `/api/v2/corpora/${corpusId}/agents`],
    ['POST', `/api/v2/corpora/${corpusId}/agents`, { agent_id: agentId }],
    ['DELETE', `/api/v2/corpora/${corpusId}/agents/${agentId}`],
    ['GET', `/api/v2/corpora/${corpusId}/default-agent`],
    ['PUT', `/api/v2/corpora/${corpusId}/default-agent`, { agent_id: null }],
    ['GET', `/api/v2/corpora/${corpusId}/conversation-starters`],
    ['PUT', `/api/v2/corpora/${corpusId}/conversation-starters`, { conversation_starters: ['x'] }],
    ['POST', `/api/v2/corpora/${corpusId}/conversation-starters/generate`, {}],
    ['GET', `/api/v2/corpora/${corpusId}/documents`],
    ['POST', `/api/v2/corpora/${corpusId}/documents`, { upload_from: 'text', text: 'planted' }],
    ['POST', `/api/v2/corpora/${corpusId}/documents/duplicate-check`, { names: ['text'] }],
    ['GET', `/api/v2/corpora/${corpusId}/documents/${documentId}`],
    ['DELETE', `/api/v2/corpora/${corpusId}/documents/${documentId}`],
    ['PUT', `/api/v2/corpora/${corpusId}/documents/${documentId}/tags`, { tags: ['pwned'] }],
    ['POST', `/api/v2/corpora/${corpusId}/documents/${documentId}/retry`],
    ['POST', `/api/v2/corpora/${corpusId}/search`, { query: 'launch code swordfish' }],
    ['GET', `/api/v2/corpora/${corpusId}/permissions`],
    ['POST', `/api/v2/corpora/${corpusId}/permissions`, { user_id: owner.id, permission: 'read' }],
    ['DELETE', `/api/v2/corpora/${corpusId}/permissions/${owner.id}`],
    ['GET', `/api/corpus/${corpusId}/document/`],
  ];

  async function expectAllHidden(caller: TestUser) {
    for (const [method, url, body] of routes()) {
      const reply = await request(t.app, method, url, body, { token: caller.token });
      expect(reply.status, `${method} ${url}`).toBe(404);
      expect(reply.text).not.toContain('swordfish');
    }
    const uploaded = await uploadFiles(t.app, caller, corpusId, [{ name: 'a.txt', bytes: 'planted file' }]);
    expect(uploaded.status).toBe(404);
  }

  it('another organization’s owner gets 404 everywhere', async () => {
    await expectAllHidden(await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) }));
  });

  it('a colleague without a permission gets 404 everywhere', async () => {
    await expectAllHidden(await createUser(t.app, { role: 'member' }));
  });

  it('nothing changed', async () => {
    const corpus = (await owner.api.get(`/api/v2/corpora/${corpusId}`)).body.data;
    expect(corpus).toMatchObject({ name: 'Secret corpus', document_counts: { total: 1 } });
    const document = (await owner.api.get(`/api/v2/corpora/${corpusId}/documents/${documentId}`)).body.data;
    expect(document).toMatchObject({ is_deleted: false, tags: [] });
    expect((await owner.api.get(`/api/v2/corpora/${corpusId}/agents`)).body.data.items).toHaveLength(1);
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/search`, { query: 'swordfish' })).body.data.items).toHaveLength(1);
  });
});

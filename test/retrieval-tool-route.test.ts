// A retrieval tool made and run through the HTTP routes, on both databases: its corpora must be the
// organization's when saved, and its test run searches with the permissions of whoever runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('retrieval tool over HTTP (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let foreigner: TestUser;
  let corpusId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    corpusId = (await createCorpus(owner)).id;
    const document = await uploadText(owner, corpusId, 'The warranty covers two years of repairs for every bicycle.');
    await waitForProcessing(owner, corpusId, [document.id]);
  });
  afterAll(() => t.close());

  it('refuses another organization’s corpus when saved, and runs with the caller’s permissions', async () => {
    const base = `/api/v2/organizations/${owner.organizationId}/tools/retrieval`;
    const foreignCorpus = (await createCorpus(foreigner)).id;
    const refused = await owner.api.post(base, { name: 'search_foreign', description: 'x', config: { corpus_ids: [corpusId, foreignCorpus] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ pointer: '/body/config/corpus_ids/1', message: expect.stringContaining(`corpus ${foreignCorpus}`) }]);

    const created = await owner.api.post(base, { name: 'search_warranty', description: 'Searches the warranty terms', config: { corpus_ids: [corpusId], passages: 2 } });
    expect(created.status).toBe(201);
    const run = await owner.api.post(`/api/v2/organizations/${owner.organizationId}/tools/${created.body.data.id}/test`, { input: { query: 'warranty repairs' } });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ status: 'ok', request: null, http_status: null });
    expect(run.body.data.output).toMatch(/^Passages for "warranty repairs", best first \(1\)\. Cite a passage by its number in square brackets, like \[1\]\.\n\n\[1\] .+\(score 0\.\d\d\)\nThe warranty covers two years/);
  });
});

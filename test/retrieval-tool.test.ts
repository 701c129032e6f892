// The retrieval tool searches its corpora with the permissions of the person asking: a member granted
// one of them gets passages of that one only, an admin of all of its organization's, nobody ever of
// another organization's corpus or of a deleted one; the passages come numbered with source, page
// and score, within the output cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRetrievalTool } from '../src/tools/retrieval/index.js';
import type { StoredTool } from '../src/tools/tool.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { actorOf, runContext } from './support/tool-context.js';

describe.each(databaseKinds)('retrieval tool (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let foreigner: TestUser;
  const corpus: Record<'granted' | 'closed' | 'deleted' | 'foreign', number> = { granted: 0, closed: 0, deleted: 0, foreign: 0 };

  async function corpusWith(owner: TestUser, text: string): Promise<number> {
    const { id } = await createCorpus(owner);
    const document = await uploadText(owner, id, text);
    await waitForProcessing(owner, id, [document.id]);
    return id;
  }

  const toolOf = (corpusIds: number[], extra: Record<string, unknown> = {}, maxOutputCharacters = 16_000) => {
    const stored: StoredTool = { id: 3, organization_id: admin.organizationId, kind: 'retrieval', name: 'search_docs', description: 'Searches the handbook', config: { corpus_ids: corpusIds, ...extra }, secret: null };
    return createRetrievalTool(stored, { search: t.app.services.search, corpora: t.app.services.corpora, maxOutputCharacters });
  };
  const runAs = (user: TestUser, corpusIds: number[], query: string) => toolOf(corpusIds).run({ query }, runContext(actorOf(user)));

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    member = await createUser(t.app, { role: 'member' });
    outsider = await createUser(t.app, { role: 'member' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    corpus.granted = await corpusWith(admin, 'Holiday policy: every employee has 25 days of paid holiday a year.');
    corpus.closed = await corpusWith(admin, 'Salary bands: the holiday bonus is confidential and paid in June.');
    corpus.deleted = await corpusWith(admin, 'Old holiday rules that no longer apply.');
    corpus.foreign = await corpusWith(foreigner, 'Foreign holiday secrets of another organization.');
    expect((await admin.api.post(`/api/v2/corpora/${corpus.granted}/permissions`, { user_id: member.id, permission: 'read' })).status).toBeLessThan(300);
    expect((await admin.api.delete(`/api/v2/corpora/${corpus.deleted}`)).status).toBe(200);
  });
  afterAll(() => t.close());

  const all = () => [corpus.granted, corpus.closed, corpus.deleted, corpus.foreign];

  it('gives a member passages of the corpora granted to them only', async () => {
    const outcome = await runAs(member, all(), 'holiday');
    expect(outcome.status).toBe('ok');
    expect(outcome.output).toMatch(/^Passages for "holiday", best first \(1\)\. Cite a passage by its number in square brackets, like \[1\]\.\n\n\[1\] .+ \(score 0\.\d\d\)\nHoliday policy: every employee has 25 days/);
    expect(outcome.output).not.toMatch(/Salary|Old holiday|Foreign/);
    expect(outcome.request).toBeUndefined();
    expect(outcome.passages).toEqual([expect.objectContaining({ number: 1, corpus_id: corpus.granted, text: expect.stringContaining('25 days') })]);
  });

  it('numbers its passages from the number an answer reserves for them', async () => {
    const reserved: number[] = [];
    const context = { ...runContext(actorOf(admin)), numberPassages: (count: number) => (reserved.push(count), 4) };
    const outcome = await toolOf(all()).run({ query: 'holiday' }, context);
    expect(reserved).toEqual([2]);
    expect(outcome.output).toMatch(/like \[4\]\.\n\n\[4\] [\s\S]+\n\n\[5\] /);
    expect(outcome.passages!.map((passage) => passage.number)).toEqual([4, 5]);
  });

  it('gives an admin every corpus of the organization, never a deleted one or another organization’s', async () => {
    const outcome = await runAs(admin, all(), 'holiday');
    expect(outcome.output).toContain('25 days of paid holiday');
    expect(outcome.output).toContain('holiday bonus is confidential');
    expect(outcome.output).not.toMatch(/Old holiday|Foreign/);
    expect(outcome.output).toMatch(/\[2\] /);
  });

  it('says nothing of corpora left out: a caller who may read none is told there is nothing', async () => {
    expect(await runAs(outsider, all(), 'holiday')).toEqual({ status: 'ok', output: 'No passages found for "holiday".' });
    expect(await runAs(foreigner, [corpus.granted, corpus.closed], 'holiday')).toEqual({ status: 'ok', output: 'No passages found for "holiday".' });
    expect((await runAs(foreigner, all(), 'holiday')).output).toContain('Foreign holiday secrets');
  });

  it('takes at most `passages` passages and stays within the output cap', async () => {
    const many = await toolOf(all(), { passages: 1 }).run({ query: 'holiday' }, runContext(actorOf(admin)));
    expect(many.output).toMatch(/\[1\] /);
    expect(many.output).not.toMatch(/\[2\] /);
    const small = await toolOf(all(), {}, 150).run({ query: 'holiday' }, runContext(actorOf(admin)));
    expect(small.output.length).toBeLessThanOrEqual(150);
    expect(small.output).toMatch(/\[1\] /);
  });

  it('refuses a missing or oversized query', async () => {
    const tool = toolOf(all());
    expect(await tool.run({}, runContext(actorOf(admin)))).toMatchObject({ status: 'error', output: 'The search needs a query: a non-empty string' });
    expect(await tool.run({ query: 7 }, runContext(actorOf(admin)))).toMatchObject({ status: 'error' });
    expect(await tool.run({ query: 'x'.repeat(1001) }, runContext(actorOf(admin)))).toMatchObject({ status: 'error' });
    expect(tool.definition).toMatchObject({ name: 'search_docs', parameters: { required: ['query'] } });
  });
});

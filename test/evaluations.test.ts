// Datasets, their queries and metric definitions over HTTP on both databases: each route and its
// error statuses, queries added as JSON and as CSV (every problem named by line, bounded in rows and
// bytes, formula-looking cells kept as text), roles, and another organization's records (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createDataset } from './support/evaluations.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

const csvPost = (t: TestApp, user: TestUser, datasetId: number, csv: string | Buffer) =>
  request(t.app, 'POST', `/api/v2/datasets/${datasetId}/queries`, undefined, { token: user.token, raw: csv, headers: { 'content-type': 'text/csv' } });

describe.each(databaseKinds)('evaluation datasets and metrics (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
    viewer = await createUser(t.app, { organizationId: orgId, role: 'viewer' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(() => t?.close());

  describe('datasets', () => {
    it('creates, lists, reads, renames and deletes; names are unique; a viewer may only read', async () => {
      const created = await owner.api.post('/api/v2/datasets', { name: 'Handbook questions', description: 'What staff ask' });
      expect(created.status, created.text).toBe(201);
      const dataset = created.body.data;
      expect(dataset).toMatchObject({ name: 'Handbook questions', description: 'What staff ask', query_count: 0, created_by: owner.email, modified_by: owner.email });
      expect((await owner.api.post('/api/v2/datasets', { name: 'Handbook questions' })).status).toBe(409);
      expect((await viewer.api.post('/api/v2/datasets', { name: 'Viewer set' })).status).toBe(403);
      expect((await owner.api.post('/api/v2/datasets', { name: '   ' })).status).toBe(400);

      const listed = await viewer.api.get('/api/v2/datasets?q=handbook');
      expect(listed.status).toBe(200);
      expect(listed.body.data.items.map((item: { id: number }) => item.id)).toContain(dataset.id);
      expect((await viewer.api.get(`/api/v2/datasets/${dataset.id}`)).body.data.name).toBe('Handbook questions');

      const renamed = await owner.api.put(`/api/v2/datasets/${dataset.id}`, { name: 'Handbook', organization_id: 999 });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ name: 'Handbook', description: 'What staff ask' });
      expect((await member.api.put(`/api/v2/datasets/${dataset.id}`, { name: 'Taken over' })).status).toBe(403);
      expect((await viewer.api.delete(`/api/v2/datasets/${dataset.id}`)).status).toBe(403);

      expect((await owner.api.delete(`/api/v2/datasets/${dataset.id}`)).body.data).toEqual({ id: dataset.id });
      expect((await owner.api.get(`/api/v2/datasets/${dataset.id}`)).status).toBe(404);
    });

    it('lets a member change the dataset they made, not one another member made', async () => {
      const own = await createDataset(member);
      expect((await member.api.put(`/api/v2/datasets/${own.id}`, { description: 'mine' })).status).toBe(200);
      const other = await createDataset(await createUser(t.app, { organizationId: owner.organizationId, role: 'member' }));
      expect((await member.api.put(`/api/v2/datasets/${other.id}`, { description: 'not mine' })).status).toBe(403);
      expect((await member.api.post(`/api/v2/datasets/${other.id}/queries`, { queries: [{ question: 'Hi?' }] })).status).toBe(403);
    });

    it('answers 404 for another organization’s dataset and its queries, whatever the route', async () => {
      const dataset = await createDataset(owner, [{ question: 'How many days of leave?' }]);
      const queryId = (await owner.api.get(`/api/v2/datasets/${dataset.id}/queries`)).body.data.items[0].id;
      for (const reply of [
        await stranger.api.get(`/api/v2/datasets/${dataset.id}`),
        await stranger.api.put(`/api/v2/datasets/${dataset.id}`, { name: 'Mine now' }),
        await stranger.api.delete(`/api/v2/datasets/${dataset.id}`),
        await stranger.api.get(`/api/v2/datasets/${dataset.id}/queries`),
        await stranger.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries: [{ question: 'x' }] }),
        await stranger.api.put(`/api/v2/datasets/${dataset.id}/queries/${queryId}`, { question: 'x' }),
        await stranger.api.delete(`/api/v2/datasets/${dataset.id}/queries/${queryId}`),
      ]) {
        expect(reply.status).toBe(404);
        expect(reply.body.error.code).toBe('not_found');
      }
      expect((await stranger.api.get('/api/v2/datasets')).body.data.items).toEqual([]);
      expect((await owner.api.get(`/api/v2/datasets/${dataset.id}`)).body.data.query_count).toBe(1);
    });
  });

  describe('queries', () => {
    it('adds queries as JSON, lists, updates and deletes them', async () => {
      const dataset = await createDataset(owner);
      const added = await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, {
        queries: [
          { question: ' How many days of leave? ', expected_answer: '25 days', expected_sources: [12, 'handbook.md', 12], tags: ['leave', 'leave'] },
          { question: 'Who approves expenses?' },
        ],
      });
      expect(added.status, added.text).toBe(201);
      expect(added.body.data.added).toBe(2);
      const [first, second] = added.body.data.ids;
      const listed = (await viewer.api.get(`/api/v2/datasets/${dataset.id}/queries`)).body.data;
      expect(listed.total).toBe(2);
      expect(listed.items[0]).toMatchObject({ id: first, question: 'How many days of leave?', expected_answer: '25 days', expected_sources: [12, 'handbook.md'], tags: ['leave'] });
      expect(listed.items[1]).toMatchObject({ id: second, expected_answer: null, expected_sources: [], tags: [] });

      const updated = await owner.api.put(`/api/v2/datasets/${dataset.id}/queries/${second}`, { expected_answer: 'The team lead', tags: ['expenses'] });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ question: 'Who approves expenses?', expected_answer: 'The team lead', tags: ['expenses'] });
      expect((await owner.api.put(`/api/v2/datasets/${dataset.id}/queries/${second}`, { question: '' })).status).toBe(400);
      expect((await owner.api.put(`/api/v2/datasets/${dataset.id}/queries/999999`, { question: 'x' })).status).toBe(404);

      expect((await owner.api.delete(`/api/v2/datasets/${dataset.id}/queries/${first}`)).status).toBe(200);
      expect((await owner.api.delete(`/api/v2/datasets/${dataset.id}/queries/${first}`)).status).toBe(404);
      expect((await owner.api.get(`/api/v2/datasets/${dataset.id}`)).body.data.query_count).toBe(1);
    });

    it('refuses bodies with both or neither of queries and csv, and wrong types with the field named', async () => {
      const dataset = await createDataset(owner);
      expect((await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, {})).status).toBe(400);
      expect((await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries: [{ question: 'a' }], csv: 'question\nb' })).status).toBe(400);
      const wrong = await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries: [{ question: 'a' }, { question: 7 }] });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.details.map((detail: { pointer: string }) => detail.pointer)).toContain('/body/queries/1/question');
      const sources = await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries: [{ question: 'a', expected_sources: [0] }] });
      expect(sources.status).toBe(400);
      expect((await owner.api.get(`/api/v2/datasets/${dataset.id}`)).body.data.query_count).toBe(0);
    });

    it('adds queries from a CSV body with quoted fields, lists split on |, blank lines skipped and formula cells kept as text', async () => {
      const dataset = await createDataset(owner);
      const csv =
        '\uFEFFQuestion,expected_answer,expected_sources,tags\r\n' +
        '"How many days of leave, per year?",25 days,12|handbook.md,leave|hr\r\n' +
        '\r\n' +
        '"A question\nover two lines",,,\r\n' +
        '=HYPERLINK("http://evil.example"),+1,@SUM(A1),-2\r\n';
      const reply = await csvPost(t, owner, dataset.id, csv);
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.data.added).toBe(3);
      const items = (await owner.api.get(`/api/v2/datasets/${dataset.id}/queries`)).body.data.items;
      expect(items[0]).toMatchObject({ question: 'How many days of leave, per year?', expected_answer: '25 days', expected_sources: [12, 'handbook.md'], tags: ['leave', 'hr'] });
      expect(items[1]).toMatchObject({ question: 'A question\nover two lines', expected_answer: null, expected_sources: [], tags: [] });
      expect(items[2]).toMatchObject({ question: '=HYPERLINK("http://evil.example")', expected_answer: '+1', expected_sources: ['@SUM(A1)'], tags: ['-2'] });
      // The same CSV inside a JSON body.
      expect((await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, { csv: 'question\nAnother one?\n' })).body.data.added).toBe(1);
    });

    it('names every line at fault and adds nothing', async () => {
      const dataset = await createDataset(owner);
      const csv = ['question,expected_answer', 'Fine?,yes', ',empty question', 'Too,many,fields', '"Line two of', 'this one",ok', 'Short'].join('\n');
      const reply = await csvPost(t, owner, dataset.id, csv);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('bad_request');
      const pointers = reply.body.error.details.map((detail: { pointer: string }) => detail.pointer);
      expect(pointers).toEqual(['/body/csv/line/3', '/body/csv/line/4', '/body/csv/line/7']);
      expect(reply.body.message).toContain('lines 3, 4, 7');
      expect(reply.body.error.details[0].message).toBe('line 3: question is empty');
      expect((await owner.api.get(`/api/v2/datasets/${dataset.id}`)).body.data.query_count).toBe(0);
    });

    it('refuses a header without question, unknown columns, an empty file and a header alone', async () => {
      const dataset = await createDataset(owner);
      const cases: [string, RegExp][] = [
        ['expected_answer\nyes\n', /no question column/],
        ['question,expected_answr\nHi,yes\n', /unknown column "expected_answr"/],
        ['question,question\nHi,yes\n', /named twice/],
        ['\n\n', /empty/],
        ['question\n', /no row/],
        ['question,expected_sources\nHi,0\n', /not a document id/],
      ];
      for (const [csv, message] of cases) {
        const reply = await csvPost(t, owner, dataset.id, csv);
        expect(reply.status, csv).toBe(400);
        expect(reply.body.error.details[0].message, csv).toMatch(message);
      }
    });

    it('bounds an import: 10,000 rows at most (the next line is named), 5 MiB at most (413), 10,000 queries a dataset', async () => {
      const dataset = await createDataset(owner);
      const rows = Array.from({ length: 10_001 }, (_, index) => `Question ${index + 1}?`);
      const tooMany = await csvPost(t, owner, dataset.id, ['question', ...rows].join('\n'));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.details[0].pointer).toBe('/body/csv/line/10002');

      const huge = await csvPost(t, owner, dataset.id, `question\n${'x'.repeat(5 * 1024 * 1024)}\n`);
      expect(huge.status).toBe(413);
      expect(huge.body.error.code).toBe('payload_too_large');

      const full = await csvPost(t, owner, dataset.id, ['question', ...rows.slice(0, 10_000)].join('\n'));
      expect(full.status, full.text).toBe(201);
      const oneMore = await owner.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries: [{ question: 'One more?' }] });
      expect(oneMore.status).toBe(400);
      expect((await owner.api.get(`/api/v2/datasets/${dataset.id}`)).body.data.query_count).toBe(10_000);
    });
  });

  describe('metrics', () => {
    it('lists the built-in metrics first, with their judge prompts, the same for every organization', async () => {
      const reply = await viewer.api.get('/api/v2/metrics?page_size=100');
      expect(reply.status).toBe(200);
      const builtins = reply.body.data.items.filter((item: { builtin: boolean }) => item.builtin);
      expect(builtins.map((item: { kind: string }) => item.kind)).toEqual([
        'exact_match', 'contains', 'token_f1', 'rouge_l', 'answer_length', 'latency', 'cost', 'hit_at_k', 'recall_at_k', 'precision_at_k', 'mrr',
        'citation_precision', 'citation_recall', 'semantic_similarity', 'faithfulness', 'answer_relevance', 'correctness',
      ]);
      const faithfulness = builtins.find((item: { kind: string }) => item.kind === 'faithfulness');
      expect(faithfulness).toMatchObject({ needs: 'judge', pass_when: 'at_least', threshold: 0.8, created_by: null });
      expect(faithfulness.judge_prompt).toContain('"supported": true or false');
      expect(builtins.find((item: { kind: string }) => item.kind === 'semantic_similarity').available).toBe(false);
      expect(builtins.find((item: { kind: string }) => item.kind === 'hit_at_k').parameters).toEqual({ k: 5 });
      expect(builtins.find((item: { kind: string }) => item.kind === 'latency')).toMatchObject({ pass_when: 'at_most', judge_prompt: null });
      const theirs = (await stranger.api.get('/api/v2/metrics?builtin=true&page_size=100')).body.data.items.map((item: { id: number }) => item.id);
      expect(theirs).toEqual(builtins.map((item: { id: number }) => item.id));
    });

    it('defines, reads, changes and deletes a metric; built-in ones are not changed', async () => {
      const created = await member.api.post('/api/v2/metrics', { name: 'Hit@3', kind: 'hit_at_k', parameters: { k: 3 }, threshold: 1 });
      expect(created.status, created.text).toBe(201);
      const metric = created.body.data;
      expect(metric).toMatchObject({ builtin: false, kind: 'hit_at_k', parameters: { k: 3 }, threshold: 1, created_by: member.email });
      expect((await member.api.post('/api/v2/metrics', { name: 'Hit@3', kind: 'mrr' })).status).toBe(409);
      expect((await viewer.api.post('/api/v2/metrics', { name: 'Viewer metric', kind: 'mrr' })).status).toBe(403);
      expect((await member.api.put(`/api/v2/metrics/${metric.id}`, { threshold: 0.5, kind: 'mrr' })).body.data).toMatchObject({ threshold: 0.5, kind: 'hit_at_k' });
      expect((await viewer.api.put(`/api/v2/metrics/${metric.id}`, { threshold: 0.1 })).status).toBe(403);
      expect((await owner.api.put(`/api/v2/metrics/${metric.id}`, { parameters: { k: 0 } })).status).toBe(400);

      const builtinId = (await owner.api.get('/api/v2/metrics?builtin=true&kind=exact_match')).body.data.items[0].id;
      const refused = await owner.api.put(`/api/v2/metrics/${builtinId}`, { threshold: 0.5 });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('built in');
      expect((await owner.api.delete(`/api/v2/metrics/${builtinId}`)).status).toBe(403);

      expect((await owner.api.delete(`/api/v2/metrics/${metric.id}`)).status).toBe(200);
      expect((await owner.api.get(`/api/v2/metrics/${metric.id}`)).status).toBe(404);
    });

    it('checks parameters, rubrics and judges, each problem with its field', async () => {
      const bad = async (body: Record<string, unknown>, pointer: string) => {
        const reply = await owner.api.post('/api/v2/metrics', { name: `Bad ${Math.random()}`, ...body });
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.body.error.details.map((detail: { pointer: string }) => detail.pointer), JSON.stringify(body)).toContain(pointer);
      };
      await bad({ kind: 'hit_at_k', parameters: { k: 'three' } }, '/body/parameters/k');
      await bad({ kind: 'hit_at_k', parameters: { depth: 3 } }, '/body/parameters/depth');
      await bad({ kind: 'regex', parameters: {} }, '/body/parameters/pattern');
      await bad({ kind: 'regex', parameters: { pattern: '(unclosed' } }, '/body/parameters/pattern');
      await bad({ kind: 'regex', parameters: { pattern: '(?=a)b' } }, '/body/parameters/pattern');
      await bad({ kind: 'regex', parameters: { pattern: 'x', flags: 'g' } }, '/body/parameters/flags');
      await bad({ kind: 'custom_rubric' }, '/body/rubric');
      await bad({ kind: 'token_f1', rubric: 'Be kind' }, '/body/rubric');
      await bad({ kind: 'token_f1', llm_configuration_id: 1 }, '/body/llm_configuration_id');
      await bad({ kind: 'nonsense' }, '/body/kind');

      const regex = await owner.api.post('/api/v2/metrics', { name: 'Says days', kind: 'regex', parameters: { pattern: '\\b\\d+ days\\b', flags: 'i' }, threshold: 1 });
      expect(regex.status, regex.text).toBe(201);
      const rubric = await owner.api.post('/api/v2/metrics', { name: 'Polite', kind: 'custom_rubric', rubric: 'The answer is polite and brief.' });
      expect(rubric.status).toBe(201);
      expect(rubric.body.data.judge_prompt).toContain('{rubric}');
    });

    it('answers 404 for another organization’s metric and for its LLM configuration named as a judge', async () => {
      const metric = (await owner.api.post('/api/v2/metrics', { name: 'Ours', kind: 'mrr' })).body.data;
      expect((await stranger.api.get(`/api/v2/metrics/${metric.id}`)).status).toBe(404);
      expect((await stranger.api.put(`/api/v2/metrics/${metric.id}`, { threshold: 1 })).status).toBe(404);
      expect((await stranger.api.delete(`/api/v2/metrics/${metric.id}`)).status).toBe(404);
      expect((await stranger.api.get('/api/v2/metrics?builtin=false')).body.data.items).toEqual([]);
      const theirs = await stranger.api.post(`/api/v2/organizations/${stranger.organizationId}/llm-configurations`, { name: 'Theirs', provider: 'openai', model: 'm' });
      const judged = await owner.api.post('/api/v2/metrics', { name: 'Judged elsewhere', kind: 'answer_relevance', llm_configuration_id: theirs.body.data.id });
      expect(judged.status).toBe(404);
    });
  });
});

// Analytics over what the runtime records: figures that agree with the responses they count (asked
// through the API, with the offline answerer and with a priced model on a fake server), votes given
// through the feedback routes, documents and how they are indexed, the most active, and every total
// the sum of its points. Then who sees which scope, and the answers to bad queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, corpusWith, createModelConfiguration } from './support/ask.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { addTeammate, createProject, createTeam } from './support/people.js';

const HANDBOOK = 'The travel handbook says that train tickets are refunded within thirty days when the journey is cancelled.';
const ROUTES = ['summary', 'cost', 'tokens', 'query-count', 'votes', 'document-count', 'indexing-mode', 'most-active'];

type Point = { start: string } & Record<string, number>;
interface Series {
  points: Point[];
  totals: Record<string, number>;
  [key: string]: unknown;
}

/** Each figure of the totals is the sum of the points (costs to the nano-dollar). */
function expectTotalsAreSums(series: Series) {
  for (const [figure, total] of Object.entries(series.totals)) {
    const sum = series.points.reduce((acc, point) => acc + point[figure]!, 0);
    expect(Math.round(sum * 1e9), figure).toBe(Math.round(total * 1e9));
  }
}

const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0);


describe.each(databaseKinds)('analytics (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let member: TestUser;
  let lead: TestUser;
  let viewer: TestUser;
  let corpusId: number;
  let documentId: number;
  let offlineAgent: { id: number };
  let pricedAgent: { id: number };
  let teamId: number;
  let projectId: number;
  /** The responses asked in beforeAll, as the ask route answered them. */
  const responses: { id: number; agent_id: number; status: string; tokens: { prompt: number; completion: number }; cost: number | null; by: TestUser }[] = [];
  let since: string;
  let until: string;
  let other: { owner: TestUser; agentId: number; corpusId: number; teamId: number; projectId: number };

  const get = (user: TestUser, route: string, query: Record<string, string | number> = {}) =>
    user.api.get(`/api/v2/analytics/${route}?${new URLSearchParams({ from: since, to: until, interval: 'hour', ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) })}`);
  const series = async (user: TestUser, route: string, query: Record<string, string | number> = {}): Promise<Series> => {
    const reply = await get(user, route, query);
    expect(reply.status, reply.text).toBe(200);
    expectTotalsAreSums(reply.body.data);
    return reply.body.data;
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host, LIMIT_LLM_TIMEOUT_MS: '5000' });
    since = new Date(Date.now() - 3_600_000).toISOString();
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    lead = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
    teamId = (await createTeam(lead)).id;
    projectId = (await createProject(owner)).id;
    const corpus = await corpusWith(owner, [HANDBOOK]);
    corpusId = corpus.corpusId;
    documentId = corpus.documentIds[0]!;
    offlineAgent = await agentWith(owner, [corpusId], { team_id: teamId, project_id: projectId });
    const ask = async (user: TestUser, agentId: number, query: string) => {
      const reply = await user.api.post(`/api/v2/agents/${agentId}/responses`, { query });
      if (reply.status === 201) responses.push({ ...reply.body.data, by: user });
      return reply;
    };
    // Asked before the organization has a model: the offline answerer answers, at no cost.
    for (const user of [owner, owner, member, viewer]) expect((await ask(user, offlineAgent.id, 'When are train tickets refunded?')).status).toBe(201);

    const configuration = await createModelConfiguration(owner, fake, { input_price_per_million: 2.5, output_price_per_million: 10 });
    pricedAgent = await agentWith(owner, [], { llm_configuration_id: configuration.id });
    fake.answer = 'Train tickets are refunded within thirty days.';
    fake.tokens = { prompt: 1234, completion: 567 };
    for (const user of [owner, member]) expect((await ask(user, pricedAgent.id, 'And the refund window?')).status).toBe(201);
    fake.failNext(500, { times: 5 });
    expect((await member.api.post(`/api/v2/agents/${pricedAgent.id}/responses`, { query: 'This one fails' })).status).toBe(502);

    // Another organization asks too: its figures must never show here, nor ours there.
    const otherOrg = await createOrganization(t.app);
    const otherOwner = await createUser(t.app, { organizationId: otherOrg, role: 'owner' });
    const otherCorpus = await corpusWith(otherOwner, [HANDBOOK]);
    const otherTeam = await createTeam(otherOwner);
    const otherProject = await createProject(otherOwner);
    const otherAgent = await agentWith(otherOwner, [otherCorpus.corpusId], { team_id: otherTeam.id, project_id: otherProject.id });
    expect((await otherOwner.api.post(`/api/v2/agents/${otherAgent.id}/responses`, { query: 'When are train tickets refunded?' })).status).toBe(201);
    other = { owner: otherOwner, agentId: otherAgent.id, corpusId: otherCorpus.corpusId, teamId: otherTeam.id, projectId: otherProject.id };
    until = new Date(Date.now() + 3_600_000).toISOString();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('counts every question once, with the tokens and cost its response says', async () => {
    expect(responses.filter((r) => r.agent_id === pricedAgent.id).map((r) => r.cost)).toEqual([0.008755, 0.008755]);
    expect(responses.filter((r) => r.agent_id === offlineAgent.id).map((r) => r.cost)).toEqual([0, 0, 0, 0]);
    // The responses as the chat logs give them: the failed one is there too, with the prompt it counted.
    const logs: { status: string; prompt_tokens: number; completion_tokens: number; cost: number | null }[] = (await owner.api.get('/api/v2/chat-logs')).body.data.items;
    expect(logs).toHaveLength(7);

    const queries = await series(owner, 'query-count', { timezone: 'Asia/Kathmandu' });
    expect(queries.totals).toEqual({ queries: 7, completed: 6, blocked: 0, failed: 1 });
    expect(queries.points.length).toBeGreaterThanOrEqual(2);

    const tokens = await series(owner, 'tokens');
    const prompt = sumOf(logs.map((r) => r.prompt_tokens));
    const completion = sumOf(logs.map((r) => r.completion_tokens));
    expect(tokens.totals).toEqual({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

    const cost = await series(owner, 'cost');
    expect(cost.totals.cost).toBeCloseTo(sumOf(logs.map((r) => r.cost ?? 0)), 12);
    // Two answers of the priced model, and the failed ask's prompt, counted here and priced.
    const failed = logs.find((row) => row.status === 'failed')!;
    expect(failed.cost).toBeGreaterThan(0);
    expect(cost.totals.cost).toBeCloseTo(0.008755 * 2 + failed.cost!, 12);
    expect(cost.totals).toMatchObject({ answer_cost: cost.totals.cost, judge_cost: 0, embedding_cost: 0, unpriced_calls: 0 });

    const summary = await series(owner, 'summary', { interval: 'day', timezone: 'Europe/Paris' });
    expect(summary.totals).toMatchObject({ queries: 7, failed: 1, prompt_tokens: prompt, completion_tokens: completion, documents: 1 });
    expect(summary.averages).toEqual({ latency_ms: expect.any(Number), rating: null });
  });

  it('counts an agent’s, a user’s, a team’s, a project’s and a corpus’s own', async () => {
    const count = async (scope: string, scopeId: number) => (await series(owner, 'query-count', { scope, scope_id: scopeId })).totals.queries;
    expect(await count('agent', offlineAgent.id)).toBe(4);
    expect(await count('agent', pricedAgent.id)).toBe(3);
    expect(await count('user', member.id)).toBe(3);
    expect(await count('user', viewer.id)).toBe(1);
    expect(await count('team', teamId)).toBe(4);
    expect(await count('project', projectId)).toBe(4);
    // A corpus counts the questions of the agents connected to it.
    expect(await count('corpus', corpusId)).toBe(4);
    const priced = await series(owner, 'cost', { scope: 'agent', scope_id: offlineAgent.id });
    expect(priced.totals.cost).toBe(0);
  });

  it('counts votes and ratings given through the feedback routes, by when they were given', async () => {
    const [first, second, third] = responses.filter((r) => r.agent_id === offlineAgent.id);
    expect((await first!.by.api.put(`/api/v2/responses/${first!.id}/vote`, { vote: 'up' })).status).toBe(200);
    expect((await second!.by.api.put(`/api/v2/responses/${second!.id}/vote`, { vote: 'down' })).status).toBe(200);
    expect((await third!.by.api.put(`/api/v2/responses/${third!.id}/vote`, { vote: 'up' })).status).toBe(200);
    expect((await third!.by.api.put(`/api/v2/responses/${third!.id}/rating`, { rating: 4 })).status).toBe(200);
    expect((await owner.api.put(`/api/v2/responses/${third!.id}/rating`, { rating: 2 })).status).toBe(200);
    // A changed vote is counted once, as it is now.
    expect((await second!.by.api.put(`/api/v2/responses/${second!.id}/vote`, { vote: 'up' })).status).toBe(200);

    const votes = await series(owner, 'votes');
    expect(votes.totals).toEqual({ up: 3, down: 0, ratings: 2, rating_sum: 6 });
    expect(votes.averages).toEqual({ rating: 3 });
    expect((await series(owner, 'votes', { scope: 'agent', scope_id: pricedAgent.id })).totals).toEqual({ up: 0, down: 0, ratings: 0, rating_sum: 0 });
    expect((await series(owner, 'summary')).totals).toMatchObject({ up_votes: 3, down_votes: 0 });
  });

  it('counts documents by step and failure, and by how they are indexed', async () => {
    const second = await uploadText(owner, corpusId, 'A second page about seat reservations and their fees.');
    await waitForProcessing(owner, corpusId, [second.id]);
    await t.app.database.db.updateTable('documents').set({ failed_on: new Date().toISOString(), error: 'Simulated failure' }).where('id', '=', second.id).execute();
    const empty = await createCorpus(owner);
    await uploadText(owner, empty.id, 'A page of a corpus connected to no agent.');

    const documents = await series(owner, 'document-count');
    expect(documents.totals).toMatchObject({ documents: 3, failed: 1 });
    expect(sumOf(['queued', 'extracting', 'chunking', 'embedding', 'indexed'].map((step) => documents.totals[step]!))).toBe(2);
    const ofAgent = await series(owner, 'document-count', { scope: 'agent', scope_id: offlineAgent.id });
    expect(ofAgent.totals).toMatchObject({ documents: 2, indexed: 1, failed: 1 });
    expect((await series(owner, 'document-count', { scope: 'corpus', scope_id: corpusId })).totals).toEqual(ofAgent.totals);
    expect((await series(owner, 'document-count', { scope: 'agent', scope_id: pricedAgent.id })).totals.documents).toBe(0);

    // No embedder: every indexed document and chunk is found by its words alone.
    const chunks = (await owner.api.get(`/api/v2/corpora/${corpusId}/documents/${documentId}`)).body.data.chunk_count;
    const indexing = await series(owner, 'indexing-mode', { scope: 'corpus', scope_id: corpusId });
    expect(indexing.totals).toEqual({ documents_full_text: 1, documents_vector: 0, documents_hybrid: 0, chunks_full_text: chunks, chunks_vector: 0, chunks_hybrid: 0 });
  });

  it('ranks the most active agents, users, corpora and projects', async () => {
    const rank = async (entity: string, query: Record<string, string | number> = {}) => (await series(owner, 'most-active', { entity, ...query })) as Series & { items: any[] };
    const agents = await rank('agents');
    expect(agents.totals.queries).toBe(7);
    expect(agents.items.map((item) => [item.id, item.queries])).toEqual([
      [offlineAgent.id, 4],
      [pricedAgent.id, 3],
    ]);
    expect(agents.items[1].cost).toBeCloseTo((await series(owner, 'cost', { scope: 'agent', scope_id: pricedAgent.id })).totals.cost!, 12);
    // As many questions: the one whose calls cost more first (the member's failed ask counted a prompt).
    const users = await rank('users', { limit: 2 });
    expect(users.items.map((item) => [item.id, item.queries])).toEqual([
      [member.id, 3],
      [owner.id, 3],
    ]);
    expect(users.items[1]).toMatchObject({ email: owner.email, name: expect.any(String) });
    expect((await rank('corpora')).items).toEqual([expect.objectContaining({ id: corpusId, queries: 4 })]);
    expect((await rank('projects')).items).toEqual([expect.objectContaining({ id: projectId, queries: 4 })]);
    expect((await rank('users', { scope: 'agent', scope_id: pricedAgent.id })).items.map((item) => item.id)).toEqual([member.id, owner.id]);
  });

  it('shows each scope to those who may see it, and another organization’s to no one', async () => {
    const status = async (user: TestUser, query: Record<string, string | number>) => (await get(user, 'summary', query)).status;
    await addTeammate(lead, teamId, member, 'editor');
    expect(await status(member, {})).toBe(403);
    expect(await status(member, { scope: 'user', scope_id: member.id })).toBe(200);
    expect(await status(viewer, { scope: 'user', scope_id: viewer.id })).toBe(200);
    expect(await status(member, { scope: 'user', scope_id: owner.id })).toBe(403);
    expect(await status(member, { scope: 'team', scope_id: teamId })).toBe(403);
    expect(await status(lead, { scope: 'team', scope_id: teamId })).toBe(200);
    expect(await status(lead, { scope: 'agent', scope_id: offlineAgent.id })).toBe(200);
    expect(await status(lead, { scope: 'agent', scope_id: pricedAgent.id })).toBe(403);
    expect(await status(member, { scope: 'project', scope_id: projectId })).toBe(403);
    // Corpora: none granted is a 404, as everywhere; read is not enough; manage is.
    expect(await status(member, { scope: 'corpus', scope_id: corpusId })).toBe(404);
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: member.id, permission: 'read' })).status).toBe(200);
    expect(await status(member, { scope: 'corpus', scope_id: corpusId })).toBe(403);
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: member.id, permission: 'manage' })).status).toBe(200);
    expect(await status(member, { scope: 'corpus', scope_id: corpusId })).toBe(200);

    for (const [scope, scopeId] of [
      ['agent', other.agentId],
      ['corpus', other.corpusId],
      ['team', other.teamId],
      ['project', other.projectId],
      ['user', other.owner.id],
    ] as const) {
      for (const route of ROUTES) {
        const reply = await get(owner, route, { scope, scope_id: scopeId });
        expect(reply.status, `${route} ${scope}`).toBe(404);
        expect(reply.body.error.code).toBe('not_found');
      }
    }
    // Each organization's overall figures hold its own questions only.
    expect((await series(other.owner, 'query-count')).totals.queries).toBe(1);
    expect((await series(owner, 'query-count')).totals.queries).toBe(7);
  });

  it('answers 400 with the field for bad queries', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ from: '2026-01-02', to: '2026-01-01', interval: 'day' }, '/query/from'],
      [{ from: '2016-01-01', to: '2026-01-01', interval: 'hour' }, '/query/interval'],
      [{ timezone: 'Not/AZone' }, '/query/timezone'],
      [{ timezone: '+02:00' }, '/query/timezone'],
      [{ from: 'last tuesday' }, '/query/from'],
      [{ scope: 'agent' }, '/query/scope_id'],
      [{ scope: 'overall', scope_id: '3' }, '/query/scope_id'],
      [{ scope: 'galaxy' }, '/query/scope'],
      [{ interval: 'fortnight' }, '/query/interval'],
      [{ scope: 'agent', scope_id: 'seven' }, '/query/scope_id'],
    ];
    for (const [query, pointer] of cases) {
      for (const route of ROUTES) {
        const reply = await owner.api.get(`/api/v2/analytics/${route}?${new URLSearchParams(query)}`);
        expect(reply.status, `${route} ${JSON.stringify(query)}`).toBe(400);
        expect(reply.body.error.code).toBe('bad_request');
        expect(reply.body.error.details.map((detail: { pointer: string }) => detail.pointer)).toContain(pointer);
      }
    }
    for (const query of ['entity=teams', 'limit=0', 'limit=101']) {
      expect((await owner.api.get(`/api/v2/analytics/most-active?${query}`)).status).toBe(400);
    }
  });
});

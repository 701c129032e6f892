// Chat logs across threads: who reads which rows, the filters, JSON and CSV (parsed back with a CSV
// parser), formula cells neutralised, and an export of 20,000 responses read in bounded batches.
import { get, type IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_LOG_BATCH_ROWS } from '../src/modules/chat/chat-logs.service.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createResponse, createThread, type ThreadData } from './support/chat.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { addTeammate, createProject, createTeam } from './support/people.js';

describe.each(databaseKinds)('chat logs (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let lead: TestUser;
  let foreigner: TestUser;
  let plainAgent: { id: number; name: string };
  let teamAgentId: number;
  let projectId: number;
  const ids = { january: 0, february: 0, march: 0, april: 0 };

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    owner = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'member' });
    lead = await createUser(t.app, { role: 'member' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const team = await createTeam(admin);
    await addTeammate(admin, team.id, lead, 'lead');
    plainAgent = await createAgent(admin, { name: 'Plain agent' });
    teamAgentId = (await createAgent(admin, { team_id: team.id })).id;
    projectId = (await createProject(admin)).id;
    const ownersTeamThread = await createThread(owner, teamAgentId);
    const ownersPlainThread = await createThread(owner, plainAgent.id);
    const othersThread = await createThread(other, plainAgent.id);
    ids.january = await createResponse(t.app, ownersTeamThread, { created_on: '2026-01-15T10:00:00.000Z', project_id: projectId });
    ids.february = await createResponse(t.app, ownersPlainThread, {
      created_on: '2026-02-15T10:00:00.000Z',
      query: '=HYPERLINK("http://evil.example","click")',
      answer: 'Line one, "quoted"\nline two',
      cost: null,
    });
    ids.march = await createResponse(t.app, othersThread, { created_on: '2026-03-15T10:00:00.000Z', query: '+1+2', answer: '-3' });
    ids.april = await createResponse(t.app, othersThread, { created_on: '2026-04-15T10:00:00.000Z', query: '@SUM(A1)', answer: '\tTabbed' });
    await createResponse(t.app, await createThread(foreigner, (await createAgent(foreigner)).id));
    await owner.api.put(`/api/v2/responses/${ids.january}/vote`, { vote: 'up' });
    await admin.api.put(`/api/v2/responses/${ids.january}/vote`, { vote: 'down' });
    await lead.api.put(`/api/v2/responses/${ids.january}/rating`, { rating: 4 });
  });
  afterAll(() => t.close());

  const logIds = async (user: TestUser, query = '') => {
    const reply = await user.api.get(`/api/v2/chat-logs${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data.items.map((row: { response_id: number }) => row.response_id);
  };

  it('answers the success envelope with one row per response, oldest first', async () => {
    const reply = await admin.api.get('/api/v2/chat-logs');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.body.success).toBe(true);
    expect(reply.body.data.items.map((row: { response_id: number }) => row.response_id)).toEqual([ids.january, ids.february, ids.march, ids.april]);
    expect(reply.body.data.items[0]).toEqual({
      response_id: ids.january,
      thread_id: expect.any(Number),
      agent_id: teamAgentId,
      agent_name: expect.any(String),
      user_email: owner.email,
      created_on: '2026-01-15T10:00:00.000Z',
      query: expect.any(String),
      answer: expect.any(String),
      status: 'completed',
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      cost: 0.0001,
      latency_ms: 250,
      model: 'test-model',
      citations: 1,
      up_votes: 1,
      down_votes: 1,
      ratings: 1,
      average_rating: 4,
    });
  });

  it('holds what each caller may read: admins all, leads their teams’ agents and their own, others their own', async () => {
    expect(await logIds(owner)).toEqual([ids.january, ids.february]);
    expect(await logIds(other)).toEqual([ids.march, ids.april]);
    expect(await logIds(lead)).toEqual([ids.january]);
    expect(await logIds(foreigner)).toHaveLength(1);
  });

  it('filters by agent, project, user, time range (from inclusive, to exclusive) and vote', async () => {
    expect(await logIds(admin, `?agent_id=${plainAgent.id}`)).toEqual([ids.february, ids.march, ids.april]);
    expect(await logIds(admin, `?project_id=${projectId}`)).toEqual([ids.january]);
    expect(await logIds(admin, `?user_id=${other.id}`)).toEqual([ids.march, ids.april]);
    expect(await logIds(admin, '?from=2026-02-15T10:00:00.000Z&to=2026-04-15T10:00:00.000Z')).toEqual([ids.february, ids.march]);
    expect(await logIds(admin, '?from=2026-02-15T11:00:00%2B01:00')).toEqual([ids.february, ids.march, ids.april]);
    expect(await logIds(owner, `?user_id=${owner.id}&agent_id=${teamAgentId}`)).toEqual([ids.january]);
    expect(await logIds(lead, `?user_id=${owner.id}`)).toEqual([ids.january]);
    expect(await logIds(admin, '?vote=up')).toEqual([ids.january]);
    expect(await logIds(admin, `?vote=down&agent_id=${plainAgent.id}`)).toEqual([]);
    expect(await logIds(admin, '?vote=down&format=json')).toEqual([ids.january]);
    expect((await admin.api.get('/api/v2/chat-logs?vote=sideways')).status).toBe(400);
  });

  it('refuses another user’s log to a member, and unknown or foreign filters', async () => {
    const refused = await other.api.get(`/api/v2/chat-logs?user_id=${owner.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await admin.api.get('/api/v2/chat-logs?agent_id=999999')).status).toBe(404);
    expect((await foreigner.api.get(`/api/v2/chat-logs?agent_id=${plainAgent.id}`)).status).toBe(404);
    expect((await foreigner.api.get(`/api/v2/chat-logs?project_id=${projectId}`)).status).toBe(404);
    expect((await foreigner.api.get(`/api/v2/chat-logs?user_id=${owner.id}`)).status).toBe(404);
    const backwards = await admin.api.get('/api/v2/chat-logs?from=2026-03-01T00:00:00Z&to=2026-02-01T00:00:00Z');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.details[0].pointer).toBe('/query/from');
    expect((await admin.api.get('/api/v2/chat-logs?format=xml')).status).toBe(400);
    expect((await admin.api.get('/api/v2/chat-logs?from=yesterday')).status).toBe(400);
  });

  it('answers CSV for format=csv or Accept: text/csv, quoted per RFC 4180, formula cells neutralised', async () => {
    const byFormat = await admin.api.get('/api/v2/chat-logs?format=csv');
    const byAccept = await admin.api.get('/api/v2/chat-logs', { headers: { accept: 'text/csv' } });
    for (const reply of [byFormat, byAccept]) {
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/csv/);
      expect(reply.headers['content-disposition']).toMatch(/^attachment; filename="chat-logs-\d{4}-\d{2}-\d{2}\.csv"$/);
    }
    expect(byAccept.text).toBe(byFormat.text);
    expect(byFormat.text.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(byFormat.text, { header: true, skipEmptyLines: true, newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields?.slice(0, 6)).toEqual(['response_id', 'thread_id', 'agent_id', 'agent_name', 'user_email', 'created_on']);
    const byId = new Map(parsed.data.map((row) => [Number(row.response_id), row]));
    expect([...byId.keys()]).toEqual([ids.january, ids.february, ids.march, ids.april]);
    expect(byId.get(ids.january)).toMatchObject({ up_votes: '1', down_votes: '1', average_rating: '4', cost: '0.0001', total_tokens: '120' });
    expect(byId.get(ids.february)).toMatchObject({
      query: `'=HYPERLINK("http://evil.example","click")`,
      answer: 'Line one, "quoted"\nline two',
      cost: '',
      agent_name: 'Plain agent',
    });
    expect(byId.get(ids.march)).toMatchObject({ query: "'+1+2", answer: "'-3" });
    expect(byId.get(ids.april)).toMatchObject({ query: "'@SUM(A1)", answer: "'\tTabbed" });
    // JSON keeps the text as it was.
    const json = await admin.api.get('/api/v2/chat-logs?format=json', { headers: { accept: 'text/csv' } });
    expect(json.body.data.items[1].query).toBe('=HYPERLINK("http://evil.example","click")');
  });

  it('exports 20,000 responses in bounded batches, without holding the export in memory', async () => {
    const exporter = await createUser(t.app, { role: 'member' });
    const thread: ThreadData = await createThread(exporter, plainAgent.id);
    const answer = 'An answer long enough to weigh something. '.repeat(50);
    const at = '2026-05-01T00:00:00.000Z';
    const row = {
      organization_id: exporter.organizationId,
      thread_id: thread.id,
      agent_id: plainAgent.id,
      query: 'How much?',
      answer,
      status: 'completed' as const,
      model: 'test-model',
      created_on: at,
      created_by: exporter.id,
    };
    for (let i = 0; i < 20_000; i += 500) await t.app.database.db.insertInto('agent_responses').values(Array.from({ length: 500 }, () => row)).execute();

    // Counts the rows each read returned, without keeping them (a spy's record of results would hold them all).
    const repo = t.app.services.store.repos.chatLogs;
    const read = repo.batch;
    const batchSizes: number[] = [];
    repo.batch = async (...args) => {
      const rows = await read.apply(repo, args);
      batchSizes.push(rows.length);
      return rows;
    };
    // The live heap, measured after a full collection every few chunks while the export streams: it must
    // stay far below the size of the export (some 40 MB of text, more as rows and objects).
    const collectGarbage = exposeGc();
    collectGarbage();
    const heapAtStart = process.memoryUsage().heapUsed;
    let liveHeapPeak = 0;
    let rows = 0;
    let bytes = 0;
    let chunks = 0;
    // Over a real connection, whose flow control makes the server wait for the reader (an injected
    // request would buffer whatever the server writes).
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`${address}/api/v2/chat-logs?format=csv&user_id=${exporter.id}`, { headers: { authorization: `Bearer ${exporter.token}` } }, resolve).on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    for await (const chunk of response as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      // Rows end with \r\n, which a chunk boundary may split: count the line feeds (no cell here holds one).
      for (const byte of chunk) if (byte === 0x0a) rows++;
      if (++chunks % 10 === 0) {
        collectGarbage();
        liveHeapPeak = Math.max(liveHeapPeak, process.memoryUsage().heapUsed - heapAtStart);
      }
    }
    repo.batch = read;
    expect(rows).toBe(20_001);
    expect(Math.max(...batchSizes)).toBe(CHAT_LOG_BATCH_ROWS);
    expect(batchSizes.reduce((sum, size) => sum + size, 0)).toBe(20_000);
    expect(bytes).toBeGreaterThan(40_000_000);
    expect(chunks).toBeGreaterThan(20);
    expect(liveHeapPeak / 1024 / 1024).toBeLessThan(16);
  }, 120_000);
});

/** The engine's full garbage collection, made callable from here (as node --expose-gc would). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

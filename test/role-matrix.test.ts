// The authorisation matrix, checked against the app's own route table: every operation has a declared
// answer for each organization role, and every operation refuses a caller from another organization
// (404 for anything of that organization; lists and creations stay within the caller's own). A route
// added without a line here fails the first test, so every new route must declare who may use it.
// Team roles refine these answers for team agents; test/team-agents.test.ts covers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { FLAG_NAMES } from '../src/modules/flags/feature-flags.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';
import { conversationOf, newConversation } from './support/chat.js';
import { createCorpus, uploadText } from './support/corpora.js';
import { addTeammate, createProject, createTeam, multipartFile, pngBytes } from './support/people.js';

type Role = 'owner' | 'admin' | 'member' | 'viewer';
const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];

/** Marks every name of the first organization: none may show up in an answer to the other one. */
const MARK = 'victim-secret';

interface World {
  app: App;
  orgId: number;
  /** An owner who makes the fixtures; the callers below belong to no team and no project. */
  maker: TestUser;
  callers: Record<Role, TestUser>;
  /** A member whom user operations target. */
  subject: TestUser;
  teammate: TestUser;
  agentId: number;
  historyId: number;
  teamId: number;
  projectId: number;
  configurationId: number;
  corpusId: number;
  documentId: number;
}

interface Call {
  url: string;
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
  /** An endless stream (Server-Sent Events): only the status and the first bytes are awaited. */
  stream?: boolean;
}

interface Case {
  /** The request a caller makes; may first make a target of its own (for deletions). */
  call: (w: World, caller: TestUser) => Call | Promise<Call>;
  expect: Record<Role, number>;
  /** Another organization's caller: 404, or "own" where the operation names nothing of this organization. */
  foreign: 404 | 'own';
  /** For a foreign caller, when `call` would make the target in the caller's own organization. */
  foreignCall?: (w: World) => Call | Promise<Call>;
}

const all = (status: number) => ({ owner: status, admin: status, member: status, viewer: status });
/** A corpus is seen by owners and admins, and by those granted a permission on it: the callers here hold none. */
const corpusManagers = (status: number) => ({ owner: status, admin: status, member: 404, viewer: 404 });
const writers = (status: number) => ({ owner: status, admin: status, member: status, viewer: 403 });
const admins = (status: number) => ({ owner: status, admin: status, member: 403, viewer: 403 });

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}`;
const freshUser = (w: World) => createUser(w.app, { organizationId: w.orgId, role: 'member' });
const notification = async (w: World, user: TestUser): Promise<Call> => {
  await w.app.services.notifications.notify(user.organizationId, [user.id], { kind: 'team_added', title: 'matrix', body: 'matrix' });
  const id = (await user.api.get('/api/v2/notifications?unread=true')).body.data.items[0].id;
  return { url: `/api/v2/notifications/${id}/read` };
};
const apiKeyOf = async (w: World, user: TestUser): Promise<Call> => {
  const key = await w.app.services.auth.createApiKey({ userId: user.id, organizationId: user.organizationId }, { name: 'matrix' });
  return { url: `/api/v2/auth/api-keys/${key.id}` };
};
const org = (w: World) => `/api/v2/organizations/${w.orgId}`;
const corpus = (w: World) => `/api/v2/corpora/${w.corpusId}`;
const document = (w: World) => `${corpus(w)}/documents/${w.documentId}`;
const agent = (w: World) => `/api/v2/agents/${w.agentId}`;
/** An LLM configuration of the organization, on a loopback address outside the allow-list: its test call fails at once. */
const newLlmConfiguration = async (w: World): Promise<number> =>
  (await w.maker.api.post(`${org(w)}/llm-configurations`, { name: unique('Matrix LLM'), provider: 'openai_compatible', model: 'm', base_url: 'http://127.0.0.1:9/v1' })).body.data.id;
/** The caller's own thread and response (with the world's agent, of no team), or the maker's for a foreign caller. */
const thread = async (w: World, caller: TestUser) => `/api/v2/threads/${(await conversationOf(w.app, caller, w.agentId)).threadId}`;
/** A file given in the caller's own thread, as an ask gives it. */
const attachment = async (w: World, caller: TestUser) => {
  const threadId = (await conversationOf(w.app, caller, w.agentId)).threadId;
  const actor = await w.app.services.auth.authenticate(`Bearer ${caller.token}`);
  const [given] = await w.app.services.attachments.attach(actor, threadId, [{ filename: 'matrix.txt', bytes: Buffer.from('matrix text') }]);
  return `/api/v2/threads/${threadId}/attachments/${given!.id}`;
};
const response = async (w: World, caller: TestUser) => `/api/v2/responses/${(await conversationOf(w.app, caller, w.agentId)).responseId}`;
const ownComment = async (w: World, caller: TestUser) => {
  const url = await response(w, caller);
  return `${url}/comments/${(await caller.api.post(`${url}/comments`, { text: 'matrix' })).body.data.id}`;
};
/** A retrieval tool over the world's corpus (no flag, no secret, runs without the network); a fresh one each call. */
const newTool = async (w: World): Promise<number> =>
  (await w.maker.api.post(`${org(w)}/tools/retrieval`, { name: unique('matrix_tool').replace(' ', '_'), config: { corpus_ids: [w.corpusId] } })).body.data.id;
const tools = new WeakMap<World, Promise<number>>();
const tool = async (w: World) => {
  if (!tools.has(w)) tools.set(w, newTool(w));
  return `${org(w)}/tools/${await tools.get(w)!}`;
};
const withApiTools = async (w: World) => {
  await w.maker.api.put('/api/v2/feature-flags/api-tools', { enabled: true });
  return `${org(w)}/tools/api`;
};
const toolImports = new WeakMap<World, Promise<number>>();
const toolImportDocument = { openapi: '3.0.3', info: { title: 'Matrix', version: '1' }, servers: [{ url: 'https://api.example.com' }], paths: { '/items': { get: { operationId: 'listItems', responses: {} } } } };
/** An import the maker started (the job may still be queued: reading it answers all the same). */
const toolImport = async (w: World) => {
  if (!toolImports.has(w)) {
    toolImports.set(
      w,
      (async () => {
        await w.maker.api.put('/api/v2/feature-flags/api-tools', { enabled: true });
        return (await w.maker.api.post(`${org(w)}/tool-imports`, { document: toolImportDocument, name_prefix: 'matrix_' })).body.data.id as number;
      })(),
    );
  }
  return `${org(w)}/tool-imports/${await toolImports.get(w)!}`;
};
const withA2a = (w: World) => w.maker.api.put('/api/v2/feature-flags/a2a', { enabled: true });
const llmConfigurations = new WeakMap<World, Promise<number>>();
const llmConfiguration = async (w: World) => {
  if (!llmConfigurations.has(w)) llmConfigurations.set(w, newLlmConfiguration(w));
  return `${org(w)}/llm-configurations/${await llmConfigurations.get(w)!}`;
};
/** A dataset of the maker's with one query; a fresh one for deletions. */
const newDataset = async (w: World) => {
  const dataset = (await w.maker.api.post('/api/v2/datasets', { name: unique('Matrix dataset') })).body.data;
  const queryId = (await w.maker.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries: [{ question: 'How many days of leave?', expected_answer: '25' }] })).body.data.ids[0];
  return { id: dataset.id as number, queryId: queryId as number };
};
const datasets = new WeakMap<World, ReturnType<typeof newDataset>>();
const dataset = (w: World) => {
  if (!datasets.has(w)) datasets.set(w, newDataset(w));
  return datasets.get(w)!;
};
const newMetric = async (w: World): Promise<number> => (await w.maker.api.post('/api/v2/metrics', { name: unique('Matrix metric'), kind: 'hit_at_k', parameters: { k: 3 } })).body.data.id;
const metrics = new WeakMap<World, Promise<number>>();
const metric = (w: World) => {
  if (!metrics.has(w)) metrics.set(w, newMetric(w));
  return metrics.get(w)!;
};
/** An agent of the maker's that stays active (the world's agent may have been deactivated by an earlier line). */
const evaluatedAgents = new WeakMap<World, Promise<number>>();
const evaluatedAgent = (w: World) => {
  if (!evaluatedAgents.has(w)) evaluatedAgents.set(w, createAgent(w.maker, { name: unique('Evaluated agent') }).then((created) => created.id));
  return evaluatedAgents.get(w)!;
};
/** An evaluation of the maker's agent on the world's dataset, started by the maker. */
const newEvaluation = async (w: World): Promise<number> => {
  const body = { agent_id: await evaluatedAgent(w), dataset_id: (await dataset(w)).id, metric_ids: [await metric(w)] };
  return (await w.maker.api.post('/api/v2/evaluations', body)).body.data.id;
};
const evaluations = new WeakMap<World, Promise<number>>();
const evaluation = (w: World) => {
  if (!evaluations.has(w)) evaluations.set(w, newEvaluation(w));
  return evaluations.get(w)!;
};
/** An evaluation still queued, with no job to run it (made through the repositories): cancelling it is always allowed. */
const queuedEvaluation = async (w: World): Promise<number> => {
  const at = new Date().toISOString();
  return w.app.services.store.repos.evaluations.insert({
    organization_id: w.orgId,
    name: unique('Queued evaluation'),
    agent_id: w.agentId,
    history_id: w.historyId,
    dataset_id: null,
    judge_llm_configuration_id: null,
    metrics: '[]',
    status: 'queued',
    concurrency: 1,
    cost_budget_usd: null,
    total_queries: 0,
    error: null,
    started_on: null,
    finished_on: null,
    created_on: at,
    created_by: w.maker.id,
    modified_on: at,
    modified_by: w.maker.id,
  });
};
const evaluationUrl = async (w: World) => `/api/v2/evaluations/${await evaluation(w)}`;
/** A connector of the organization on the world's corpus, made by the maker (the flag on); never synced to a real library. */
const newConnector = async (w: World): Promise<number> => {
  await w.maker.api.put('/api/v2/feature-flags/document-library-index', { enabled: true });
  const body = { name: unique('Matrix connector'), corpus_id: w.corpusId, tenant_id: 'contoso.onmicrosoft.com', client_id: 'matrix-client', client_secret: 'matrix-secret', drive_id: 'b!matrix' };
  return (await w.maker.api.post('/api/v2/connectors', body)).body.data.id;
};
const connectors = new WeakMap<World, Promise<number>>();
const connector = async (w: World) => {
  if (!connectors.has(w)) connectors.set(w, newConnector(w));
  return `/api/v2/connectors/${await connectors.get(w)!}`;
};
/** A mailbox linked to the world's corpus (made through the repositories: no mail provider is configured here). */
const newMailbox = async (w: World): Promise<number> => {
  const at = new Date().toISOString();
  const { id } = await w.app.services.store.repos.mailboxes.insert({
    organization_id: w.orgId,
    corpus_id: w.corpusId,
    provider: 'microsoft',
    address: `${unique('matrix')}@example.com`.toLowerCase(),
    folders: '["inbox"]',
    refresh_token_sealed: 'v1.not-a-token',
    refresh_token_key_id: 'none',
    created_on: at,
    created_by: w.maker.id,
    modified_on: at,
  });
  return id;
};
const mailboxes = new WeakMap<World, Promise<number>>();
const mailbox = async (w: World) => {
  if (!mailboxes.has(w)) mailboxes.set(w, newMailbox(w));
  return `/api/v2/email-indexing/mailboxes/${await mailboxes.get(w)!}`;
};
/** A guardrail of the organization, made by the maker. */
const newGuardrail = async (w: World): Promise<number> =>
  (await w.maker.api.post('/api/v2/guardrails', { name: unique('Matrix guardrail'), type: 'blocked_terms', stages: ['input'], action: 'warn', config: { terms: ['matrix'] } })).body.data.id;
const guardrails = new WeakMap<World, Promise<number>>();
const guardrail = async (w: World) => {
  if (!guardrails.has(w)) guardrails.set(w, newGuardrail(w));
  return `/api/v2/guardrails/${await guardrails.get(w)!}`;
};

/** The builder with no default model: it drafts by rules, without reaching a model the matrix's configurations name. */
const builderByRules = async (w: World): Promise<Call> => {
  for (const configuration of (await w.maker.api.get(`${org(w)}/llm-configurations`)).body.data.items) {
    if (configuration.is_default) await w.maker.api.put(`${org(w)}/llm-configurations/${configuration.id}`, { is_default: false });
  }
  return { url: '/api/v2/agents/builder', body: { description: 'A matrix helper' } };
};
/** The world's agent with an image (an avatar: the matrix configures no image model). */
const agentImage = async (w: World): Promise<Call> => {
  await w.maker.api.post(`${agent(w)}/image`, {});
  return { url: `${agent(w)}/image` };
};

const MATRIX: Record<string, Case> = {
  // Identity
  'POST /api/v2/auth/logout': { call: () => ({ url: '/api/v2/auth/logout' }), expect: all(400), foreign: 'own' },
  'GET /api/v2/auth/api-keys': { call: () => ({ url: '/api/v2/auth/api-keys' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/auth/api-keys': { call: () => ({ url: '/api/v2/auth/api-keys', body: { name: 'matrix' } }), expect: all(201), foreign: 'own' },
  'DELETE /api/v2/auth/api-keys/{key_id}': { call: apiKeyOf, expect: all(200), foreign: 404, foreignCall: (w) => apiKeyOf(w, w.maker) },

  // Users
  'GET /api/v2/users/me': { call: () => ({ url: '/api/v2/users/me' }), expect: all(200), foreign: 'own' },
  'GET /api/v2/users': { call: () => ({ url: '/api/v2/users' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/users': { call: () => ({ url: '/api/v2/users', body: { email: `invited${++sequence}@example.com` } }), expect: admins(201), foreign: 'own' },
  'GET /api/v2/users/{user_id}': { call: (w) => ({ url: `/api/v2/users/${w.subject.id}` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/users/{user_id}': { call: (w) => ({ url: `/api/v2/users/${w.subject.id}`, body: { first_name: 'Renamed' } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/users/{user_id}': { call: async (w) => ({ url: `/api/v2/users/${(await freshUser(w)).id}` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/users/{user_id}/set-password-token': { call: (w) => ({ url: `/api/v2/users/${w.subject.id}/set-password-token` }), expect: admins(201), foreign: 404 },

  // Agents
  'GET /api/v2/agents': { call: () => ({ url: '/api/v2/agents' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/agents': { call: () => ({ url: '/api/v2/agents', body: { name: unique('Matrix agent') } }), expect: writers(201), foreign: 'own' },
  'POST /api/v2/agents/filter': { call: (w) => ({ url: '/api/v2/agents/filter', body: { ids: [w.agentId] } }), expect: all(200), foreign: 'own' },
  'GET /api/v2/agents/{agent_id}': { call: (w) => ({ url: agent(w) }), expect: all(200), foreign: 404 },
  'PUT /api/v2/agents/{agent_id}': { call: (w) => ({ url: agent(w), body: { description: 'changed' } }), expect: writers(200), foreign: 404 },
  'DELETE /api/v2/agents/{agent_id}': { call: async (w) => ({ url: `/api/v2/agents/${(await createAgent(w.maker)).id}` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/agents/{agent_id}/activate': { call: (w) => ({ url: `${agent(w)}/activate` }), expect: writers(200), foreign: 404 },
  'POST /api/v2/agents/{agent_id}/deactivate': { call: (w) => ({ url: `${agent(w)}/deactivate` }), expect: writers(200), foreign: 404 },
  'GET /api/v2/agents/{agent_id}/status': { call: (w) => ({ url: `${agent(w)}/status` }), expect: all(200), foreign: 404 },
  'POST /api/v2/agents/builder': { call: builderByRules, expect: writers(200), foreign: 'own' },
  'POST /api/v2/agents/{agent_id}/image': { call: (w) => ({ url: `${agent(w)}/image`, body: {} }), expect: writers(201), foreign: 404 },
  'GET /api/v2/agents/{agent_id}/image': { call: agentImage, expect: all(200), foreign: 404 },
  'GET /api/v2/agents/{agent_id}/history': { call: (w) => ({ url: `${agent(w)}/history` }), expect: all(200), foreign: 404 },
  'POST /api/v2/agents/{agent_id}/history': { call: (w) => ({ url: `${agent(w)}/history`, body: { checkpoint_name: 'matrix' } }), expect: writers(201), foreign: 404 },
  'PUT /api/v2/agents/{agent_id}/history': { call: (w) => ({ url: `${agent(w)}/history`, body: { history_id: w.historyId } }), expect: writers(200), foreign: 404 },
  'GET /api/v2/agents/{agent_id}/history/{history_id}': { call: (w) => ({ url: `${agent(w)}/history/${w.historyId}` }), expect: all(200), foreign: 404 },
  'GET /api/v2/agents/{agent_id}/prompt-history': { call: (w) => ({ url: `${agent(w)}/prompt-history` }), expect: all(200), foreign: 404 },
  // A fresh agent each time: the world's agent may have been deactivated by an earlier line.
  'POST /api/v2/agents/{agent_id}/responses': {
    call: async (w) => ({ url: `/api/v2/agents/${(await createAgent(w.maker)).id}/responses`, body: { query: 'handbook' } }),
    expect: all(201),
    foreign: 404,
  },
  'GET /api/v2/openai/models': { call: () => ({ url: '/api/v2/openai/models' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/openai/chat/completions': {
    call: async (w) => ({ url: '/api/v2/openai/chat/completions', body: { model: `agent-${(await createAgent(w.maker)).id}`, messages: [{ role: 'user', content: 'handbook' }] } }),
    expect: all(200),
    foreign: 404,
  },
  'POST /api/v2/openai/responses': {
    call: async (w) => ({ url: '/api/v2/openai/responses', body: { model: `agent-${(await createAgent(w.maker)).id}`, input: 'handbook' } }),
    expect: all(200),
    foreign: 404,
  },
  // A2A: the world's agent is of no team, so every role reaches it once the organization turns the door on.
  'GET /api/v2/a2a/agents/{agent_id}/.well-known/agent-card.json': {
    call: async (w) => (await withA2a(w), { url: `/api/v2/a2a/agents/${w.agentId}/.well-known/agent-card.json` }),
    expect: all(200),
    foreign: 404,
  },
  'POST /api/v2/a2a/agents/{agent_id}': {
    call: async (w) => (
      await withA2a(w),
      { url: `/api/v2/a2a/agents/${w.agentId}`, body: { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'matrix', role: 'user', parts: [{ kind: 'text', text: 'handbook' }] } } } }
    ),
    expect: all(200),
    foreign: 404,
  },
  'GET /api/v2/threads': { call: () => ({ url: '/api/v2/threads' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/threads': { call: (w) => ({ url: '/api/v2/threads', body: { agent_id: w.agentId } }), expect: all(201), foreign: 404 },
  'GET /api/v2/threads/{thread_id}': { call: async (w, c) => ({ url: await thread(w, c) }), foreignCall: async (w) => ({ url: await thread(w, w.maker) }), expect: all(200), foreign: 404 },
  'PATCH /api/v2/threads/{thread_id}': {
    call: async (w, c) => ({ url: await thread(w, c), body: { title: 'matrix' } }),
    foreignCall: async (w) => ({ url: await thread(w, w.maker), body: { title: 'matrix' } }),
    expect: all(200),
    foreign: 404,
  },
  'DELETE /api/v2/threads/{thread_id}': {
    call: async (w, c) => ({ url: `/api/v2/threads/${(await newConversation(w.app, c, w.agentId)).threadId}` }),
    foreignCall: async (w) => ({ url: `/api/v2/threads/${(await newConversation(w.app, w.maker, w.agentId)).threadId}` }),
    expect: all(200),
    foreign: 404,
  },
  'GET /api/v2/threads/{thread_id}/responses': {
    call: async (w, c) => ({ url: `${await thread(w, c)}/responses` }),
    foreignCall: async (w) => ({ url: `${await thread(w, w.maker)}/responses` }),
    expect: all(200),
    foreign: 404,
  },
  'POST /api/v2/threads/{thread_id}/attachments': {
    call: async (w, c) => ({ url: `${await thread(w, c)}/attachments`, ...multipartFile(Buffer.from('matrix text'), { filename: 'matrix.txt' }) }),
    foreignCall: async (w) => ({ url: `${await thread(w, w.maker)}/attachments`, ...multipartFile(Buffer.from('matrix text'), { filename: 'matrix.txt' }) }),
    expect: all(201),
    foreign: 404,
  },
  'GET /api/v2/threads/{thread_id}/attachments': {
    call: async (w, c) => ({ url: `${await thread(w, c)}/attachments` }),
    foreignCall: async (w) => ({ url: `${await thread(w, w.maker)}/attachments` }),
    expect: all(200),
    foreign: 404,
  },
  'DELETE /api/v2/threads/{thread_id}/attachments/{attachment_id}': {
    call: async (w, c) => ({ url: await attachment(w, c) }),
    foreignCall: async (w) => ({ url: await attachment(w, w.maker) }),
    expect: all(200),
    foreign: 404,
  },
  'GET /api/v2/responses/{response_id}': { call: async (w, c) => ({ url: await response(w, c) }), foreignCall: async (w) => ({ url: await response(w, w.maker) }), expect: all(200), foreign: 404 },
  ...Object.fromEntries(
    (
      [
        ['PUT', 'vote', { vote: 'up' }, 200],
        ['PUT', 'rating', { rating: 4 }, 200],
        ['POST', 'feedback', { text: 'matrix' }, 201],
        ['GET', 'comments', undefined, 200],
        ['POST', 'comments', { text: 'matrix' }, 201],
        ['GET', 'reviews', undefined, 200],
        ['PUT', 'pin', undefined, 200],
        ['DELETE', 'pin', undefined, 200],
        ['PUT', 'tags', { tags: ['matrix'] }, 200],
      ] as const
    ).map(([method, part, body, status]): [string, Case] => [
      `${method} /api/v2/responses/{response_id}/${part}`,
      {
        call: async (w, c) => ({ url: `${await response(w, c)}/${part}`, body }),
        foreignCall: async (w) => ({ url: `${await response(w, w.maker)}/${part}`, body }),
        expect: all(status),
        foreign: 404,
      },
    ]),
  ),
  'DELETE /api/v2/responses/{response_id}/comments/{comment_id}': {
    call: async (w, c) => ({ url: await ownComment(w, c) }),
    foreignCall: async (w) => ({ url: await ownComment(w, w.maker) }),
    expect: all(200),
    foreign: 404,
  },
  // Reviews take an owner, an admin or a lead of the agent's team (test/response-feedback.test.ts).
  'POST /api/v2/responses/{response_id}/reviews': {
    call: async (w, c) => ({ url: `${await response(w, c)}/reviews`, body: { verdict: 'approved', note: 'matrix' } }),
    foreignCall: async (w) => ({ url: `${await response(w, w.maker)}/reviews`, body: { verdict: 'approved' } }),
    expect: admins(201),
    foreign: 404,
  },
  'GET /api/v2/chat-logs': { call: () => ({ url: '/api/v2/chat-logs' }), expect: all(200), foreign: 'own' },
  'GET /api/v2/projects/{project_id}/responses': { call: (w) => ({ url: `/api/v2/projects/${w.projectId}/responses` }), expect: all(200), foreign: 404 },
  'GET /api/responses/': { call: () => ({ url: '/api/responses/' }), expect: all(200), foreign: 'own' },
  'GET /api/responses/{response_id}/': {
    call: async (w, c) => ({ url: `/api/responses/${(await conversationOf(w.app, c, w.agentId)).responseId}/` }),
    foreignCall: async (w) => ({ url: `/api/responses/${(await conversationOf(w.app, w.maker, w.agentId)).responseId}/` }),
    expect: all(200),
    foreign: 404,
  },
  'GET /api/threads/': { call: () => ({ url: '/api/threads/' }), expect: all(200), foreign: 'own' },
  'POST /api/threads/': { call: (w) => ({ url: '/api/threads/', body: { agent_id: w.agentId } }), expect: all(201), foreign: 404 },
  'GET /api/threads/{thread_id}/': {
    call: async (w, c) => ({ url: `/api/threads/${(await conversationOf(w.app, c, w.agentId)).threadId}/` }),
    foreignCall: async (w) => ({ url: `/api/threads/${(await conversationOf(w.app, w.maker, w.agentId)).threadId}/` }),
    expect: all(200),
    foreign: 404,
  },
  'DELETE /api/threads/{thread_id}/': {
    call: async (w, c) => ({ url: `/api/threads/${(await newConversation(w.app, c, w.agentId)).threadId}/` }),
    foreignCall: async (w) => ({ url: `/api/threads/${(await newConversation(w.app, w.maker, w.agentId)).threadId}/` }),
    expect: all(200),
    foreign: 404,
  },
  'POST /api/responses/': { call: async (w) => ({ url: '/api/responses/', body: { agent_id: (await createAgent(w.maker)).id, query: 'handbook' } }), expect: all(201), foreign: 404 },
  'GET /api/v2/agents/{agent_id}/team-role': { call: (w) => ({ url: `${agent(w)}/team-role` }), expect: all(200), foreign: 404 },
  'GET /api/v2/agents/accessible': { call: () => ({ url: '/api/v2/agents/accessible' }), expect: all(200), foreign: 'own' },
  'GET /api/v2/projects/{project_id}/agents': { call: (w) => ({ url: `/api/v2/projects/${w.projectId}/agents` }), expect: all(200), foreign: 404 },
  'GET /api/v2/teams/{team_id}/agents': { call: (w) => ({ url: `/api/v2/teams/${w.teamId}/agents` }), expect: all(200), foreign: 404 },
  'GET /api/v2/agents/recent': { call: () => ({ url: '/api/v2/agents/recent' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/agents/recent': { call: (w) => ({ url: '/api/v2/agents/recent', body: { agent_id: w.agentId } }), expect: all(200), foreign: 404 },
  'DELETE /api/v2/agents/recent/{agent_id}': {
    call: async (w, caller) => {
      await caller.api.post('/api/v2/agents/recent', { agent_id: w.agentId });
      return { url: `/api/v2/agents/recent/${w.agentId}` };
    },
    expect: all(200),
    foreign: 404,
  },
  'GET /api/v2/agents/starred': { call: () => ({ url: '/api/v2/agents/starred' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/agents/starred': { call: (w) => ({ url: '/api/v2/agents/starred', body: { agent_id: w.agentId } }), expect: all(200), foreign: 404 },
  'DELETE /api/v2/agents/starred/{agent_id}': {
    call: async (w, caller) => {
      await caller.api.post('/api/v2/agents/starred', { agent_id: w.agentId });
      return { url: `/api/v2/agents/starred/${w.agentId}` };
    },
    expect: all(200),
    foreign: 404,
  },

  // Organizations
  'GET /api/v2/organizations/{org_id}': { call: (w) => ({ url: org(w) }), expect: all(200), foreign: 404 },
  'PUT /api/v2/organizations/{org_id}': { call: (w) => ({ url: org(w), body: { description: 'changed' } }), expect: admins(200), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/users': { call: (w) => ({ url: `${org(w)}/users` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/organizations/{org_id}/logo': { call: (w) => ({ url: `${org(w)}/logo`, ...multipartFile(pngBytes()) }), expect: admins(200), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/logo': { call: (w) => ({ url: `${org(w)}/logo` }), expect: all(200), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/model-deployment': { call: (w) => ({ url: `${org(w)}/model-deployment` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/organizations/{org_id}/model-deployment': { call: (w) => ({ url: `${org(w)}/model-deployment`, body: { chat: 1 } }), expect: admins(200), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/configurations': { call: (w) => ({ url: `${org(w)}/configurations` }), expect: all(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/configurations': {
    call: (w) => ({ url: `${org(w)}/configurations`, body: { name: unique('Matrix configuration') } }),
    expect: admins(201),
    foreign: 404,
  },
  'GET /api/v2/organizations/{org_id}/configurations/active': { call: (w) => ({ url: `${org(w)}/configurations/active` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/organizations/{org_id}/configurations/{configuration_id}': {
    call: (w) => ({ url: `${org(w)}/configurations/${w.configurationId}`, body: { settings: { theme: 'dark' } } }),
    expect: admins(200),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/configurations/{configuration_id}/activate': {
    call: (w) => ({ url: `${org(w)}/configurations/${w.configurationId}/activate` }),
    expect: admins(200),
    foreign: 404,
  },
  'GET /api/v2/organizations/{org_id}/llm-configurations': { call: (w) => ({ url: `${org(w)}/llm-configurations` }), expect: all(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/llm-configurations': {
    call: (w) => ({ url: `${org(w)}/llm-configurations`, body: { name: unique('Matrix LLM'), provider: 'openai', model: 'gpt-4o-mini' } }),
    expect: admins(201),
    foreign: 404,
  },
  'GET /api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}': { call: async (w) => ({ url: await llmConfiguration(w) }), expect: all(200), foreign: 404 },
  'PUT /api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}': {
    call: async (w) => ({ url: await llmConfiguration(w), body: { context_window: 8192 } }),
    expect: admins(200),
    foreign: 404,
  },
  'DELETE /api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}': {
    call: async (w) => ({ url: `${org(w)}/llm-configurations/${await newLlmConfiguration(w)}` }),
    expect: admins(200),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}/test': { call: async (w) => ({ url: `${await llmConfiguration(w)}/test` }), expect: admins(200), foreign: 404 },

  // Tools
  'GET /api/v2/organizations/{org_id}/tools': { call: (w) => ({ url: `${org(w)}/tools` }), expect: all(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/tools/api': {
    call: async (w) => ({
      url: await withApiTools(w),
      body: { name: unique('matrix_api').replace(' ', '_'), description: 'matrix', config: { method: 'GET', url: 'https://api.example.com/items/{id}', parameters: { type: 'object', properties: { id: { type: 'integer' } } } } },
    }),
    expect: admins(201),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/tools/web-search': {
    call: (w) => ({ url: `${org(w)}/tools/web-search`, body: { name: unique('matrix_search').replace(' ', '_'), config: { provider: 'searxng', base_url: 'https://search.example.com' } } }),
    expect: admins(201),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/tools/retrieval': {
    call: (w) => ({ url: `${org(w)}/tools/retrieval`, body: { name: unique('matrix_retrieval').replace(' ', '_'), config: { corpus_ids: [w.corpusId] } } }),
    expect: admins(201),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/tools/attachment': {
    call: (w) => ({ url: `${org(w)}/tools/attachment`, body: { name: unique('matrix_attachment').replace(' ', '_'), config: {} } }),
    expect: admins(201),
    foreign: 404,
  },
  // Past the role check, a server at an address the egress rules refuse: a 400 without reaching the network.
  'POST /api/v2/organizations/{org_id}/tools/mcp': {
    call: async (w) => ({ url: (await withApiTools(w)).replace(/api$/, 'mcp'), body: { name: unique('matrix_mcp').replace(' ', '_'), config: { url: 'http://127.0.0.1:9/mcp' } } }),
    expect: admins(400),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/tools/{tool_id}/refresh': { call: async (w) => ({ url: `${await tool(w)}/refresh` }), expect: admins(400), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/tools/{tool_id}': { call: async (w) => ({ url: await tool(w) }), expect: all(200), foreign: 404 },
  'PUT /api/v2/organizations/{org_id}/tools/{tool_id}': { call: async (w) => ({ url: await tool(w), body: { description: 'changed' } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/organizations/{org_id}/tools/{tool_id}': { call: async (w) => ({ url: `${org(w)}/tools/${await newTool(w)}` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/tools/{tool_id}/enable': { call: async (w) => ({ url: `${await tool(w)}/enable` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/tools/{tool_id}/disable': { call: async (w) => ({ url: `${await tool(w)}/disable` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/tools/{tool_id}/test': { call: async (w) => ({ url: `${await tool(w)}/test`, body: { input: { query: 'handbook' } } }), expect: admins(200), foreign: 404 },
  'POST /api/v2/organizations/{org_id}/tool-imports': {
    call: async (w) => {
      await withApiTools(w);
      return { url: `${org(w)}/tool-imports`, body: { document: toolImportDocument, name_prefix: unique('matrix').replace(/\W/g, '_') } };
    },
    expect: admins(202),
    foreign: 404,
  },
  'POST /api/v2/organizations/{org_id}/tool-imports/preview': {
    call: async (w) => {
      await withApiTools(w);
      return { url: `${org(w)}/tool-imports/preview`, body: { document: toolImportDocument } };
    },
    expect: admins(200),
    foreign: 404,
  },
  'GET /api/v2/organizations/{org_id}/tool-imports': { call: (w) => ({ url: `${org(w)}/tool-imports` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/tool-imports/{import_id}': { call: async (w) => ({ url: await toolImport(w) }), expect: admins(200), foreign: 404 },
  'GET /api/v2/organizations/{org_id}/tool-imports/{import_id}/operations': { call: async (w) => ({ url: `${await toolImport(w)}/operations` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/tool-templates': { call: () => ({ url: '/api/v2/tool-templates' }), expect: all(200), foreign: 'own' },
  'GET /api/v2/tool-templates/{template_id}': { call: () => ({ url: '/api/v2/tool-templates/hacker-news-item' }), expect: all(200), foreign: 'own' },

  // Guardrails
  'GET /api/v2/guardrails': { call: () => ({ url: '/api/v2/guardrails' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/guardrails': {
    call: () => ({ url: '/api/v2/guardrails', body: { name: unique('Matrix guardrail'), type: 'length', stages: ['output'], action: 'warn', config: { max_tokens: 100 } } }),
    expect: admins(201),
    foreign: 'own',
  },
  'GET /api/v2/guardrails/{guardrail_id}': { call: async (w) => ({ url: await guardrail(w) }), expect: all(200), foreign: 404 },
  'PUT /api/v2/guardrails/{guardrail_id}': { call: async (w) => ({ url: await guardrail(w), body: { action: 'warn' } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/guardrails/{guardrail_id}': { call: async (w) => ({ url: `/api/v2/guardrails/${await newGuardrail(w)}` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/guardrails/{guardrail_id}/test': { call: async (w) => ({ url: `${await guardrail(w)}/test`, body: { text: 'the matrix' } }), expect: all(200), foreign: 404 },

  // Teams
  'GET /api/v2/teams': { call: () => ({ url: '/api/v2/teams' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/teams': { call: () => ({ url: '/api/v2/teams', body: { name: unique('Matrix team') } }), expect: writers(201), foreign: 'own' },
  'GET /api/v2/teams/{team_id}': { call: (w) => ({ url: `/api/v2/teams/${w.teamId}` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/teams/{team_id}': { call: (w) => ({ url: `/api/v2/teams/${w.teamId}`, body: { description: 'changed' } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/teams/{team_id}': { call: async (w) => ({ url: `/api/v2/teams/${(await createTeam(w.maker)).id}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/teams/{team_id}/members': { call: (w) => ({ url: `/api/v2/teams/${w.teamId}/members` }), expect: all(200), foreign: 404 },
  'POST /api/v2/teams/{team_id}/members': {
    call: async (w) => ({ url: `/api/v2/teams/${w.teamId}/members`, body: { user_id: (await freshUser(w)).id, role: 'viewer' } }),
    expect: admins(201),
    foreign: 404,
  },
  'PUT /api/v2/teams/{team_id}/members/{user_id}': {
    call: (w) => ({ url: `/api/v2/teams/${w.teamId}/members/${w.teammate.id}`, body: { role: 'editor' } }),
    expect: admins(200),
    foreign: 404,
  },
  'DELETE /api/v2/teams/{team_id}/members/{user_id}': {
    call: async (w) => {
      const user = await freshUser(w);
      await addTeammate(w.maker, w.teamId, user, 'viewer');
      return { url: `/api/v2/teams/${w.teamId}/members/${user.id}` };
    },
    expect: admins(200),
    foreign: 404,
  },

  // Projects
  'GET /api/v2/projects': { call: () => ({ url: '/api/v2/projects?include=teams' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/projects': { call: () => ({ url: '/api/v2/projects', body: { name: unique('Matrix project') } }), expect: writers(201), foreign: 'own' },
  'GET /api/v2/projects/recent': { call: () => ({ url: '/api/v2/projects/recent' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/projects/by-ids': { call: (w) => ({ url: '/api/v2/projects/by-ids', body: { ids: [w.projectId] } }), expect: all(200), foreign: 'own' },
  'POST /api/v2/projects/filter': { call: (w) => ({ url: '/api/v2/projects/filter', body: { team_ids: [w.teamId] } }), expect: all(200), foreign: 'own' },
  'GET /api/v2/projects/{project_id}': { call: (w) => ({ url: `/api/v2/projects/${w.projectId}?include=teams` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/projects/{project_id}': { call: (w) => ({ url: `/api/v2/projects/${w.projectId}`, body: { description: 'changed' } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/projects/{project_id}': { call: async (w) => ({ url: `/api/v2/projects/${(await createProject(w.maker)).id}` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/projects/{project_id}/users': {
    call: async (w) => ({ url: `/api/v2/projects/${w.projectId}/users`, body: { user_ids: [(await freshUser(w)).id] } }),
    expect: admins(200),
    foreign: 404,
  },
  'DELETE /api/v2/projects/{project_id}/users/{user_id}': {
    call: async (w) => {
      const user = await freshUser(w);
      await w.maker.api.post(`/api/v2/projects/${w.projectId}/users`, { user_ids: [user.id] });
      return { url: `/api/v2/projects/${w.projectId}/users/${user.id}` };
    },
    expect: admins(200),
    foreign: 404,
  },

  // Notifications
  'GET /api/v2/notifications': { call: () => ({ url: '/api/v2/notifications' }), expect: all(200), foreign: 'own' },
  'PUT /api/v2/notifications/read-all': { call: () => ({ url: '/api/v2/notifications/read-all' }), expect: all(200), foreign: 'own' },
  'PUT /api/v2/notifications/{notification_id}/read': { call: notification, expect: all(200), foreign: 404, foreignCall: (w) => notification(w, w.maker) },

  // Feature flags: an intruder reads and sets those of its own organization.
  'GET /api/v2/feature-flags': { call: () => ({ url: '/api/v2/feature-flags' }), expect: all(200), foreign: 'own' },
  'PUT /api/v2/feature-flags/{flag}': { call: () => ({ url: '/api/v2/feature-flags/video-index', body: { enabled: false } }), expect: admins(200), foreign: 'own' },
  ...Object.fromEntries(
    FLAG_NAMES.map((flag) => [`GET /api/v2/feature-flags/${flag}`, { call: () => ({ url: `/api/v2/feature-flags/${flag}` }), expect: all(200), foreign: 'own' } satisfies Case]),
  ),

  // Corpora and documents (their permissions per user are tested in test/corpora.test.ts)
  'GET /api/v2/corpora': { call: () => ({ url: '/api/v2/corpora' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/corpora': { call: () => ({ url: '/api/v2/corpora', body: { name: unique('Matrix corpus') } }), expect: writers(201), foreign: 'own' },
  'GET /api/v2/connectors': { call: async (w) => (await connector(w), { url: '/api/v2/connectors' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/connectors': {
    call: async (w) => (await connector(w), { url: '/api/v2/connectors', body: { name: unique('Matrix connector'), corpus_id: w.corpusId, tenant_id: 't', client_id: 'c', client_secret: 's', drive_id: 'd' } }),
    expect: corpusManagers(201),
    foreign: 404,
  },
  'GET /api/v2/connectors/{connector_id}': { call: async (w) => ({ url: await connector(w) }), expect: corpusManagers(200), foreign: 404 },
  'PUT /api/v2/connectors/{connector_id}': { call: async (w) => ({ url: await connector(w), body: { folder_path: 'Changed' } }), expect: corpusManagers(200), foreign: 404 },
  'DELETE /api/v2/connectors/{connector_id}': { call: async (w) => ({ url: `/api/v2/connectors/${await newConnector(w)}` }), expect: corpusManagers(200), foreign: 404 },
  'POST /api/v2/connectors/{connector_id}/sync': { call: async (w) => ({ url: `/api/v2/connectors/${await newConnector(w)}/sync` }), expect: corpusManagers(202), foreign: 404 },
  // E-mail indexing: no provider is configured here, so an authorization the caller may start is a 400.
  'POST /api/email-indexing/authorize/': { call: (w) => ({ url: '/api/email-indexing/authorize/', body: { provider: 'google', corpus_id: w.corpusId } }), expect: corpusManagers(400), foreign: 404 },
  'GET /api/v2/email-indexing/mailboxes': { call: async (w) => (await mailbox(w), { url: '/api/v2/email-indexing/mailboxes' }), expect: all(200), foreign: 'own' },
  'GET /api/v2/email-indexing/mailboxes/{mailbox_id}': { call: async (w) => ({ url: await mailbox(w) }), expect: corpusManagers(200), foreign: 404 },
  'PATCH /api/v2/email-indexing/mailboxes/{mailbox_id}': { call: async (w) => ({ url: await mailbox(w), body: { schedule_minutes: 60 } }), expect: corpusManagers(200), foreign: 404 },
  'DELETE /api/v2/email-indexing/mailboxes/{mailbox_id}': { call: async (w) => ({ url: `/api/v2/email-indexing/mailboxes/${await newMailbox(w)}` }), expect: corpusManagers(200), foreign: 404 },
  'POST /api/v2/email-indexing/mailboxes/{mailbox_id}/sync': { call: async (w) => ({ url: `/api/v2/email-indexing/mailboxes/${await newMailbox(w)}/sync` }), expect: corpusManagers(202), foreign: 404 },
  'GET /api/v2/corpora/{corpus_id}': { call: (w) => ({ url: corpus(w) }), expect: corpusManagers(200), foreign: 404 },
  'PUT /api/v2/corpora/{corpus_id}': { call: (w) => ({ url: corpus(w), body: { description: 'changed' } }), expect: corpusManagers(200), foreign: 404 },
  'DELETE /api/v2/corpora/{corpus_id}': { call: async (w) => ({ url: `/api/v2/corpora/${(await createCorpus(w.maker)).id}` }), expect: corpusManagers(200), foreign: 404 },
  'GET /api/v2/corpora/{corpus_id}/permissions': { call: (w) => ({ url: `${corpus(w)}/permissions` }), expect: corpusManagers(200), foreign: 404 },
  'POST /api/v2/corpora/{corpus_id}/permissions': {
    call: (w) => ({ url: `${corpus(w)}/permissions`, body: { user_id: w.subject.id, permission: 'read' } }),
    expect: corpusManagers(200),
    foreign: 404,
  },
  'DELETE /api/v2/corpora/{corpus_id}/permissions/{user_id}': {
    call: async (w) => {
      const user = await freshUser(w);
      await w.maker.api.post(`${corpus(w)}/permissions`, { user_id: user.id, permission: 'read' });
      return { url: `${corpus(w)}/permissions/${user.id}` };
    },
    expect: corpusManagers(200),
    foreign: 404,
  },
  'GET /api/v2/corpora/{corpus_id}/agents': { call: (w) => ({ url: `${corpus(w)}/agents` }), expect: corpusManagers(200), foreign: 404 },
  'POST /api/v2/corpora/{corpus_id}/agents': { call: (w) => ({ url: `${corpus(w)}/agents`, body: { agent_id: w.agentId } }), expect: corpusManagers(200), foreign: 404 },
  'DELETE /api/v2/corpora/{corpus_id}/agents/{agent_id}': {
    call: async (w) => {
      await w.maker.api.post(`${corpus(w)}/agents`, { agent_id: w.agentId });
      return { url: `${corpus(w)}/agents/${w.agentId}` };
    },
    expect: corpusManagers(200),
    foreign: 404,
  },
  'GET /api/v2/corpora/{corpus_id}/default-agent': { call: (w) => ({ url: `${corpus(w)}/default-agent` }), expect: corpusManagers(200), foreign: 404 },
  'PUT /api/v2/corpora/{corpus_id}/default-agent': { call: (w) => ({ url: `${corpus(w)}/default-agent`, body: { agent_id: null } }), expect: corpusManagers(200), foreign: 404 },
  'GET /api/v2/corpora/{corpus_id}/conversation-starters': { call: (w) => ({ url: `${corpus(w)}/conversation-starters` }), expect: corpusManagers(200), foreign: 404 },
  'PUT /api/v2/corpora/{corpus_id}/conversation-starters': {
    call: (w) => ({ url: `${corpus(w)}/conversation-starters`, body: { conversation_starters: ['What is new?'] } }),
    expect: corpusManagers(200),
    foreign: 404,
  },
  'POST /api/v2/corpora/{corpus_id}/conversation-starters/generate': {
    call: (w) => ({ url: `${corpus(w)}/conversation-starters/generate`, body: {} }),
    expect: corpusManagers(200),
    foreign: 404,
  },
  'GET /api/v2/corpora/{corpus_id}/documents': { call: (w) => ({ url: `${corpus(w)}/documents` }), expect: corpusManagers(200), foreign: 404 },
  'POST /api/v2/corpora/{corpus_id}/documents': {
    call: (w) => ({ url: `${corpus(w)}/documents`, body: { upload_from: 'text', text: unique('Matrix document') } }),
    expect: corpusManagers(201),
    foreign: 404,
  },
  'POST /api/v2/corpora/{corpus_id}/documents/duplicate-check': {
    call: (w) => ({ url: `${corpus(w)}/documents/duplicate-check`, body: { names: ['handbook.pdf'] } }),
    expect: corpusManagers(200),
    foreign: 404,
  },
  'GET /api/v2/corpora/{corpus_id}/documents/{document_id}': { call: (w) => ({ url: document(w) }), expect: corpusManagers(200), foreign: 404 },
  'GET /api/v2/corpora/{corpus_id}/documents/{document_id}/file': { call: (w) => ({ url: `${document(w)}/file` }), expect: corpusManagers(200), foreign: 404 },
  'DELETE /api/v2/corpora/{corpus_id}/documents/{document_id}': {
    call: async (w) => ({ url: `${corpus(w)}/documents/${(await uploadText(w.maker, w.corpusId, unique('Doomed document'))).id}` }),
    expect: corpusManagers(200),
    foreign: 404,
  },
  'PUT /api/v2/corpora/{corpus_id}/documents/{document_id}/tags': { call: (w) => ({ url: `${document(w)}/tags`, body: { tags: ['matrix'] } }), expect: corpusManagers(200), foreign: 404 },
  // Allowed to owners and admins, who then learn that the document has not failed (409).
  'POST /api/v2/corpora/{corpus_id}/documents/{document_id}/retry': { call: (w) => ({ url: `${document(w)}/retry` }), expect: corpusManagers(409), foreign: 404 },
  'POST /api/v2/corpora/{corpus_id}/search': { call: (w) => ({ url: `${corpus(w)}/search`, body: { query: 'document' } }), expect: corpusManagers(200), foreign: 404 },
  'GET /api/v2/corpora/{corpus_id}/events': { call: (w) => ({ url: `${corpus(w)}/events`, stream: true }), expect: corpusManagers(200), foreign: 404 },
  'GET /api/corpus/{corpus_id}/document/': { call: (w) => ({ url: `/api/corpus/${w.corpusId}/document/` }), expect: corpusManagers(200), foreign: 404 },

  // Evaluations: members run them; owners, admins and the creator (here the maker) change them.
  'GET /api/v2/datasets': { call: () => ({ url: '/api/v2/datasets' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/datasets': { call: () => ({ url: '/api/v2/datasets', body: { name: unique('Matrix dataset') } }), expect: writers(201), foreign: 'own' },
  'GET /api/v2/datasets/{dataset_id}': { call: async (w) => ({ url: `/api/v2/datasets/${(await dataset(w)).id}` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/datasets/{dataset_id}': { call: async (w) => ({ url: `/api/v2/datasets/${(await dataset(w)).id}`, body: { description: 'changed' } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/datasets/{dataset_id}': { call: async (w) => ({ url: `/api/v2/datasets/${(await newDataset(w)).id}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/datasets/{dataset_id}/queries': { call: async (w) => ({ url: `/api/v2/datasets/${(await dataset(w)).id}/queries` }), expect: all(200), foreign: 404 },
  'POST /api/v2/datasets/{dataset_id}/queries': {
    call: async (w) => ({ url: `/api/v2/datasets/${(await dataset(w)).id}/queries`, body: { queries: [{ question: unique('Question') }] } }),
    expect: admins(201),
    foreign: 404,
  },
  'PUT /api/v2/datasets/{dataset_id}/queries/{query_id}': {
    call: async (w) => {
      const { id, queryId } = await dataset(w);
      return { url: `/api/v2/datasets/${id}/queries/${queryId}`, body: { expected_answer: '25 days' } };
    },
    expect: admins(200),
    foreign: 404,
  },
  'DELETE /api/v2/datasets/{dataset_id}/queries/{query_id}': {
    call: async (w) => {
      const { id, queryId } = await newDataset(w);
      return { url: `/api/v2/datasets/${id}/queries/${queryId}` };
    },
    expect: admins(200),
    foreign: 404,
  },
  'GET /api/v2/metrics': { call: () => ({ url: '/api/v2/metrics' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/metrics': { call: () => ({ url: '/api/v2/metrics', body: { name: unique('Matrix metric'), kind: 'mrr' } }), expect: writers(201), foreign: 'own' },
  'GET /api/v2/metrics/{metric_id}': { call: async (w) => ({ url: `/api/v2/metrics/${await metric(w)}` }), expect: all(200), foreign: 404 },
  'PUT /api/v2/metrics/{metric_id}': { call: async (w) => ({ url: `/api/v2/metrics/${await metric(w)}`, body: { threshold: 1 } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/metrics/{metric_id}': { call: async (w) => ({ url: `/api/v2/metrics/${await newMetric(w)}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/evaluations': { call: () => ({ url: '/api/v2/evaluations' }), expect: all(200), foreign: 'own' },
  'POST /api/v2/evaluations': {
    call: async (w) => ({ url: '/api/v2/evaluations', body: { agent_id: await evaluatedAgent(w), dataset_id: (await dataset(w)).id, metric_ids: [await metric(w)] } }),
    expect: writers(201),
    foreign: 404,
  },
  'GET /api/v2/evaluations/tags': { call: () => ({ url: '/api/v2/evaluations/tags' }), expect: all(200), foreign: 'own' },
  'GET /api/v2/evaluations/compare': { call: async (w) => ({ url: `/api/v2/evaluations/compare?ids=${await evaluation(w)},${await queuedEvaluation(w)}` }), expect: all(200), foreign: 404 },
  'GET /api/v2/evaluations/{evaluation_id}': { call: async (w) => ({ url: await evaluationUrl(w) }), expect: all(200), foreign: 404 },
  'PUT /api/v2/evaluations/{evaluation_id}': { call: async (w) => ({ url: await evaluationUrl(w), body: { tags: ['matrix'] } }), expect: admins(200), foreign: 404 },
  'DELETE /api/v2/evaluations/{evaluation_id}': { call: async (w) => ({ url: `/api/v2/evaluations/${await newEvaluation(w)}` }), expect: admins(200), foreign: 404 },
  'POST /api/v2/evaluations/{evaluation_id}/cancel': { call: async (w) => ({ url: `/api/v2/evaluations/${await queuedEvaluation(w)}/cancel` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/evaluations/{evaluation_id}/query-results': { call: async (w) => ({ url: `${await evaluationUrl(w)}/query-results` }), expect: all(200), foreign: 404 },
  'GET /api/v2/evaluations/{evaluation_id}/query-results/{query_result_id}': {
    call: async (w) => {
      const url = await evaluationUrl(w);
      return { url: `${url}/query-results/${(await w.maker.api.get(`${url}/query-results`)).body.data.items[0].id}` };
    },
    expect: all(200),
    foreign: 404,
  },
  'GET /api/v2/evaluations/{evaluation_id}/metric-results': { call: async (w) => ({ url: `${await evaluationUrl(w)}/metric-results` }), expect: all(200), foreign: 404 },

  // Legacy generation
  'GET /api/corpus/': { call: () => ({ url: '/api/corpus/' }), expect: all(200), foreign: 'own' },
  'POST /api/corpus/': { call: () => ({ url: '/api/corpus/', body: { name: unique('Legacy corpus') } }), expect: writers(201), foreign: 'own' },
  'GET /api/corpus/{corpus_id}/': { call: (w) => ({ url: `/api/corpus/${w.corpusId}/` }), expect: corpusManagers(200), foreign: 404 },
  'POST /api/corpus/{corpus_id}/document/': {
    call: (w) => ({ url: `/api/corpus/${w.corpusId}/document/`, body: { upload_from: 'text', text: unique('Legacy document') } }),
    expect: corpusManagers(201),
    foreign: 404,
  },
  'GET /api/documents/{document_id}/': { call: (w) => ({ url: `/api/documents/${w.documentId}/` }), expect: corpusManagers(200), foreign: 404 },
  'DELETE /api/documents/{document_id}/': {
    call: async (w) => ({ url: `/api/documents/${(await uploadText(w.maker, w.corpusId, unique('Doomed legacy document'))).id}/` }),
    expect: corpusManagers(200),
    foreign: 404,
  },
  'GET /api/users/': { call: () => ({ url: '/api/users/' }), expect: all(200), foreign: 'own' },
  'GET /api/llm-config/': { call: () => ({ url: '/api/llm-config/' }), expect: all(200), foreign: 'own' },
  'GET /api/tools/': { call: () => ({ url: '/api/tools/' }), expect: all(200), foreign: 'own' },
  'GET /api/conversation-starters/': { call: (w) => ({ url: `/api/conversation-starters/?agent_id=${w.agentId}` }), expect: all(200), foreign: 404 },
  'GET /api/users/me/': { call: () => ({ url: '/api/users/me/' }), expect: all(200), foreign: 'own' },
  'GET /api/teams/': { call: () => ({ url: '/api/teams/' }), expect: all(200), foreign: 'own' },
  'GET /api/projects/': { call: () => ({ url: '/api/projects/' }), expect: all(200), foreign: 'own' },
  'POST /api/projects/': { call: () => ({ url: '/api/projects/', body: { name: unique('Legacy matrix project') } }), expect: writers(201), foreign: 'own' },
  'GET /api/projects/{project_id}/': { call: (w) => ({ url: `/api/projects/${w.projectId}/` }), expect: all(200), foreign: 404 },
  'GET /api/notifications/': { call: () => ({ url: '/api/notifications/' }), expect: all(200), foreign: 'own' },
  'GET /api/feature-flags/': { call: () => ({ url: '/api/feature-flags/' }), expect: all(200), foreign: 'own' },
  // Analytics: owners and admins see every scope; the callers here lead no team, and see only their own user scope.
  'GET /api/v2/analytics/summary': { call: (w) => ({ url: `/api/v2/analytics/summary?scope=agent&scope_id=${w.agentId}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/analytics/cost': { call: () => ({ url: '/api/v2/analytics/cost' }), expect: admins(200), foreign: 'own' },
  'GET /api/v2/analytics/tokens': { call: (w) => ({ url: `/api/v2/analytics/tokens?scope=project&scope_id=${w.projectId}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/analytics/query-count': { call: (w) => ({ url: `/api/v2/analytics/query-count?scope=team&scope_id=${w.teamId}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/analytics/votes': { call: (w) => ({ url: `/api/v2/analytics/votes?scope=user&scope_id=${w.subject.id}` }), expect: admins(200), foreign: 404 },
  'GET /api/v2/analytics/document-count': { call: (w) => ({ url: `/api/v2/analytics/document-count?scope=corpus&scope_id=${w.corpusId}` }), expect: corpusManagers(200), foreign: 404 },
  'GET /api/v2/analytics/indexing-mode': { call: () => ({ url: '/api/v2/analytics/indexing-mode?interval=week' }), expect: admins(200), foreign: 'own' },
  'GET /api/v2/analytics/most-active': {
    call: (w) => ({ url: `/api/v2/analytics/most-active?scope=agent&scope_id=${w.agentId}&entity=users` }),
    expect: admins(200),
    foreign: 404,
  },
};

/** Routes open without credentials: they are outside the matrix, on purpose and by name. */
const PUBLIC_ROUTES = [
  'GET /',
  'GET /docs',
  'GET /openapi.json',
  'GET /metrics',
  'GET /health',
  'GET /ready',
  'GET /api/version',
  'GET /api/changelog',
  'POST /api/v2/auth/login',
  'POST /api/v2/auth/set-password',
  // The provider's redirect: it accepts nothing but a valid state (test/email-authorization.test.ts).
  'GET /api/email-indexing/callback/',
];

async function send(app: App, caller: TestUser, route: string, call: Call) {
  const method = route.split(' ')[0]!;
  if (call.stream) return openStream(app, caller, call.url);
  return request(app, method, call.url, call.raw === undefined ? call.body : undefined, { token: caller.token, ...(call.raw ? { raw: call.raw } : {}), headers: call.headers ?? {} });
}

/** Opens a stream, and closes it as soon as it answers; an error answer is read whole. */
async function openStream(app: App, caller: TestUser, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${caller.token}` }, payloadAsStream: true });
  const stream = response.stream();
  if (response.statusCode === 200) {
    stream.destroy();
    return { status: 200, body: undefined, text: '' };
  }
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return { status: response.statusCode, body: JSON.parse(text), text };
}

async function buildWorld(app: App): Promise<World> {
  const orgId = await createOrganization(app, `${MARK} organization`);
  const maker = await createUser(app, { organizationId: orgId, role: 'owner', email: `maker-${MARK}@example.com` });
  const callers = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await createUser(app, { organizationId: orgId, role })]))) as Record<Role, TestUser>;
  const subject = await createUser(app, { organizationId: orgId, role: 'member' });
  const teammate = await createUser(app, { organizationId: orgId, role: 'member' });
  const team = await createTeam(maker, { name: `${MARK} team` });
  await addTeammate(maker, team.id, teammate, 'viewer');
  const project = await createProject(maker, { name: `${MARK} project`, team_ids: [team.id] });
  const created = await createAgent(maker, { name: `${MARK} agent`, instructions: MARK, project_id: project.id });
  const historyId = (await maker.api.get(`/api/v2/agents/${created.id}/history`)).body.data.items[0].history_id;
  const configuration = await maker.api.post(`/api/v2/organizations/${orgId}/configurations`, { name: `${MARK} configuration`, activate: true });
  await request(app, 'PUT', `/api/v2/organizations/${orgId}/logo`, undefined, { token: maker.token, ...multipartFile(pngBytes()) });
  const corpusOfWorld = await createCorpus(maker, { name: `${MARK} corpus` });
  const documentOfWorld = await uploadText(maker, corpusOfWorld.id, `${MARK} document about the handbook`);
  return {
    app,
    orgId,
    maker,
    callers,
    subject,
    teammate,
    agentId: created.id,
    historyId,
    teamId: team.id,
    projectId: project.id,
    configurationId: configuration.body.data.id,
    corpusId: corpusOfWorld.id,
    documentId: documentOfWorld.id,
  };
}

describe.each(databaseKinds)('the role matrix (%s)', (kind) => {
  let t: TestApp;
  let w: World;
  let intruder: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    w = await buildWorld(t.app);
    intruder = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(() => t.close());

  it('declares an answer for every route of the app, and names every public route', () => {
    const routes: string[] = [];
    const publicRoutes: string[] = [];
    for (const [path, item] of Object.entries((t.app.swagger() as unknown as { paths: Record<string, Record<string, { security?: unknown[] }>> }).paths)) {
      for (const [method, operation] of Object.entries(item)) {
        (operation.security?.length === 0 ? publicRoutes : routes).push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(routes.filter((route) => !(route in MATRIX)), 'routes without an expectation in MATRIX').toEqual([]);
    expect(Object.keys(MATRIX).filter((route) => !routes.includes(route)), 'expectations for routes that do not exist').toEqual([]);
    expect(publicRoutes.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it.each(Object.keys(MATRIX))('%s answers each role as declared', async (route) => {
    const declared = MATRIX[route]!;
    const got: Record<string, number> = {};
    for (const role of ROLES) {
      const reply = await send(t.app, w.callers[role], route, await declared.call(w, w.callers[role]));
      got[role] = reply.status;
      if (reply.status === 403) expect(reply.body.error.code).toBe('forbidden');
    }
    expect(got).toEqual(declared.expect);
  });

  it.each(Object.keys(MATRIX))('%s refuses a caller from another organization', async (route) => {
    const declared = MATRIX[route]!;
    const call = declared.foreignCall ? await declared.foreignCall(w) : await declared.call(w, intruder);
    const reply = await send(t.app, intruder, route, call);
    if (declared.foreign === 404) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
    } else {
      expect(reply.status).toBe(declared.expect.owner);
    }
    expect(reply.text).not.toContain(MARK);
  });
});

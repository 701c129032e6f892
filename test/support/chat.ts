// Fixtures of conversations: threads opened through the HTTP route, and responses written through the
// repositories (as asking writes them), so that reading, feedback and chat logs are tested apart from asking.
import type { App } from '../../src/app.js';
import { now } from '../../src/clock.js';
import type { NewResponse } from '../../src/modules/chat/responses.repo.js';
import type { TestUser } from './factories.js';

let sequence = 0;

export type ThreadData = { id: number; agent_id: number; user_id: number; title: string; pinned: boolean; tags: string[]; response_count: number; [key: string]: unknown };

export async function createThread(owner: TestUser, agentId: number, overrides: Record<string, unknown> = {}): Promise<ThreadData> {
  const reply = await owner.api.post('/api/v2/threads', { agent_id: agentId, ...overrides });
  if (reply.status !== 201) throw new Error(`createThread: ${reply.status} ${reply.text}`);
  return reply.body.data;
}

/** A completed response in the thread, asked by its owner; fields of the row may be overridden. */
export async function createResponse(app: App, thread: { id: number; agent_id: number; user_id: number }, overrides: Partial<NewResponse> = {}): Promise<number> {
  const { repos } = app.services.store;
  const organizationId = await organizationOf(app, thread.user_id);
  const at = overrides.created_on ?? now();
  const id = await repos.responses.insert({
    organization_id: organizationId,
    thread_id: thread.id,
    agent_id: thread.agent_id,
    project_id: null,
    history_id: null,
    query: `Question ${++sequence}?`,
    answer: `Answer ${sequence} [1].`,
    status: 'completed',
    error: null,
    citations: JSON.stringify([{ number: 1, document_id: 1, corpus_id: 1, source: 'handbook.pdf', passage: 'The handbook says so.', page: 3, score: 0.9 }]),
    prompt_tokens: 100,
    completion_tokens: 20,
    input_price_per_million: null,
    output_price_per_million: null,
    cost: 0.0001,
    latency_ms: 250,
    first_token_ms: 80,
    model: 'test-model',
    llm_configuration_id: null,
    pinned_on: null,
    pinned_by: null,
    created_on: at,
    created_by: thread.user_id,
    ...overrides,
  });
  await repos.threads.touch(thread.id, at);
  return id;
}

async function organizationOf(app: App, userId: number): Promise<number> {
  const row = await app.database.db.selectFrom('users').select('organization_id').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.organization_id;
}

export interface Conversation {
  threadId: number;
  responseId: number;
}

const conversations = new WeakMap<App, Map<string, Promise<Conversation>>>();

/** A thread of the user's with the agent holding one response: made once per app, user and agent, then reused. */
export function conversationOf(app: App, user: TestUser, agentId: number): Promise<Conversation> {
  if (!conversations.has(app)) conversations.set(app, new Map());
  const made = conversations.get(app)!;
  const key = `${user.id}:${agentId}`;
  if (!made.has(key)) made.set(key, newConversation(app, user, agentId));
  return made.get(key)!;
}

/** A new thread of the user's with the agent holding one response. */
export async function newConversation(app: App, user: TestUser, agentId: number): Promise<Conversation> {
  const thread = await createThread(user, agentId);
  return { threadId: thread.id, responseId: await createResponse(app, thread) };
}

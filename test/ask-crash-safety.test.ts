// An answer's usage event is written in the transaction that writes its response row, and the
// thread's last activity in the one that completes it (runtime/ask.repo.ts), so that a failure
// between their statements (a crash, a full disk) leaves all of them or none: the event is there
// exactly when the row is, and agrees with it. A trigger makes the usage event's statement fail
// after the response's has run, as a crash between them would; on SQLite both the transaction run at
// once on the connection and the one run through Kysely (inside another transaction) are checked.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerOutcome, AskedQuestion } from '../src/modules/runtime/answer.js';
import type { Repositories } from '../src/repositories.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createThread } from './support/chat.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

const NOT_FINISHED = { status: 'failed', error: 'The answer was not finished' } as const;

/** Fails any write of a usage event of the model `crash-*`: at the question for crash-at-question, at the answer's end for crash-at-end. */
async function installFailingTrigger(test: TestApp, kind: string) {
  const db = test.app.database.db;
  if (kind === 'sqlite') {
    await sql`create trigger fail_usage before insert on usage_events
      when new.model = 'crash-at-question' or (new.model = 'crash-at-end' and new.status = 'completed')
      begin select raise(abort, 'simulated failure'); end`.execute(db);
  } else {
    await sql`create function fail_usage() returns trigger language plpgsql as $$ begin
      if new.model = 'crash-at-question' or (new.model = 'crash-at-end' and new.status = 'completed') then raise exception 'simulated failure'; end if;
      return new; end $$`.execute(db);
    await sql`create trigger fail_usage before insert on usage_events for each row execute function fail_usage()`.execute(db);
  }
}

describe.each(databaseKinds)('the asking path’s writes on %s', (kind) => {
  let test: TestApp;
  let owner: TestUser;
  let agent: { id: number };

  beforeAll(async () => {
    test = await startTestApp(kind);
    owner = await createUser(test.app, { role: 'owner' });
    agent = await createAgent(owner);
    await installFailingTrigger(test, kind);
  });
  afterAll(async () => test.close());

  const db = () => test.app.database.db;
  const store = () => test.app.services.store;
  const question = (model: string, query: string): AskedQuestion => ({
    agentId: agent.id,
    projectId: null,
    historyId: null,
    query,
    model,
    llmConfigurationId: null,
    prices: { input: 0, output: 0 },
    askedOn: new Date().toISOString(),
    askedBy: { userId: owner.id, email: owner.email },
  });
  const outcome: AnswerOutcome = {
    text: 'The answer.',
    status: 'completed',
    finishReason: 'stop',
    error: null,
    citations: [],
    toolCalls: [],
    guardrailActions: [],
    tokens: { prompt: 12, completion: 3, estimated: false },
    cost: 0.000123,
    latencyMs: 5,
    firstTokenMs: 2,
  };
  const responsesAsking = (query: string) => db().selectFrom('agent_responses').selectAll().where('query', '=', query).execute();
  const eventOf = (responseId: number) => db().selectFrom('usage_events').selectAll().where('response_id', '=', responseId).execute();
  const threadCount = async () => Number((await db().selectFrom('chat_threads').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  // Outside a transaction (on SQLite: run at once on the connection), and inside one (through Kysely).
  const ways: [string, <T>(work: (repos: Repositories) => Promise<T>) => Promise<T>][] = [
    ['on its own', (work) => work(store().repos)],
    ['inside another transaction', (work) => store().transaction(work)],
  ];

  describe.each(ways)('%s', (way, run) => {
    it('writes no response, thread or event when the question’s event cannot be written', async () => {
      const query = `crash at the question, ${way}`;
      const threads = await threadCount();
      await expect(run((repos) => repos.ask.recordQuestion(owner.organizationId, { agentId: agent.id, userId: owner.id, title: query }, question('crash-at-question', query), NOT_FINISHED))).rejects.toThrow(
        /simulated failure/,
      );
      expect(await responsesAsking(query)).toEqual([]);
      expect(await threadCount()).toBe(threads);
    });

    it('keeps the response unfinished, its event and the thread’s activity as they were, when the answer’s event cannot be written', async () => {
      const query = `crash at the end, ${way}`;
      const thread = await createThread(owner, agent.id);
      const before = await db().selectFrom('chat_threads').select('last_activity_on').where('id', '=', thread.id).executeTakeFirstOrThrow();
      const recorded = await run((repos) => repos.ask.recordQuestion(owner.organizationId, thread.id, question('crash-at-end', query), NOT_FINISHED));
      expect(await eventOf(recorded.id)).toEqual([expect.objectContaining({ kind: 'answer', status: 'failed', prompt_tokens: 0 })]);

      await expect(run((repos) => repos.ask.finishResponse(owner.organizationId, recorded, outcome, '2099-01-01T00:00:00.000Z'))).rejects.toThrow(/simulated failure/);
      const [response] = await responsesAsking(query);
      expect(response).toMatchObject({ status: 'failed', error: NOT_FINISHED.error, answer: '', prompt_tokens: 0 });
      expect(await eventOf(recorded.id)).toEqual([expect.objectContaining({ status: 'failed', prompt_tokens: 0, completion_tokens: 0 })]);
      const after = await db().selectFrom('chat_threads').select('last_activity_on').where('id', '=', thread.id).executeTakeFirstOrThrow();
      expect(after.last_activity_on).toBe(before.last_activity_on);
    });

    it('writes the outcome, its event and the thread’s activity together when nothing fails', async () => {
      const query = `no failure, ${way}`;
      const recorded = await run((repos) => repos.ask.recordQuestion(owner.organizationId, { agentId: agent.id, userId: owner.id, title: query }, question('fine', query), NOT_FINISHED));
      await run((repos) => repos.ask.finishResponse(owner.organizationId, recorded, outcome, '2099-01-01T00:00:00.000Z'));
      const [response] = await responsesAsking(query);
      expect(response).toMatchObject({ id: recorded.id, thread_id: recorded.threadId, status: 'completed', answer: 'The answer.', prompt_tokens: 12, completion_tokens: 3, cost: 0.000123 });
      expect(await eventOf(recorded.id)).toEqual([expect.objectContaining({ kind: 'answer', status: 'completed', prompt_tokens: 12, completion_tokens: 3, cost_nano_usd: 123000, latency_ms: 5 })]);
      const thread = await db().selectFrom('chat_threads').select(['last_activity_on', 'title']).where('id', '=', recorded.threadId).executeTakeFirstOrThrow();
      expect(thread).toMatchObject({ title: query, last_activity_on: '2099-01-01T00:00:00.000Z' });
    });
  });
});

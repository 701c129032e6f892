// What asking an agent reads and writes besides the agent and its LLM configuration: the permissions
// that decide which connected corpora a caller's question may draw on, the history record whose
// configuration answers, the thread's earlier turns, and the response row: written when the question
// is recorded, completed with the answer's outcome once it has ended (the columns of both:
// chat/response-columns.ts). Every statement here runs on every ask, so each is compiled once
// (src/db/precompiled.ts), and the writes that belong together run as one transaction of them
// (src/db/precompiled-transaction.ts): the answer's usage event is always written in the transaction
// that writes its response row, so that a crash can never leave one without the other.
import type { Kysely } from 'kysely';
import { precompiled } from '../../db/precompiled.js';
import { rowsOf, runTransaction } from '../../db/precompiled-transaction.js';
import type { CorpusPermission, DB, FinishReason, ResponseStatus } from '../../db/schema.js';
import { answerEventOfResponse } from '../analytics/usage-events.sql.js';
import { outcomeColumns, questionColumns } from '../chat/response-columns.js';
import type { AnswerOutcome, AskedQuestion } from './answer.js';

/** Every grant the user holds on a corpus of the organization; the caller keeps those it needs (a user holds few). */
const grantsOfUser = precompiled(2, (db: Kysely<DB>, organizationId: number, userId: number) =>
  db
    .selectFrom('corpus_permissions as p')
    .innerJoin('corpora as c', 'c.id', 'p.corpus_id')
    .select(['p.corpus_id', 'p.permission'])
    .where('c.organization_id', '=', organizationId)
    .where('p.user_id', '=', userId),
);

const latestHistory = precompiled(2, (db: Kysely<DB>, organizationId: number, agentId: number) =>
  db.selectFrom('agent_history').select('id').where('organization_id', '=', organizationId).where('agent_id', '=', agentId).orderBy('id', 'desc').limit(1),
);

/**
 * A thread that is not deleted, with its completed responses oldest first, in one read: one row with
 * null response columns when it has none, no row when there is no such thread.
 */
const threadWithTurns = precompiled(2, (db: Kysely<DB>, organizationId: number, threadId: number) =>
  db
    .selectFrom('chat_threads as t')
    .leftJoin('agent_responses as r', (join) => join.onRef('r.thread_id', '=', 't.id').on('r.status', '=', 'completed'))
    .select(['t.agent_id', 't.user_id', 'r.id as response_id', 'r.query', 'r.answer', 'r.finish_reason'])
    .where('t.organization_id', '=', organizationId)
    .where('t.id', '=', threadId)
    .where('t.deleted_on', 'is', null)
    .orderBy('r.id'),
);

const insertThread = precompiled(5, (db: Kysely<DB>, organizationId: number, agentId: number, userId: number, title: string, at: string) =>
  db
    .insertInto('chat_threads')
    .values({ organization_id: organizationId, agent_id: agentId, user_id: userId, title, last_activity_on: at, created_on: at, created_by: userId, modified_on: at, modified_by: userId })
    .returning('id'),
);

type QuestionArguments = [organizationId: number, threadId: number, agentId: number, projectId: number | null, historyId: number | null, query: string, model: string, llmConfigurationId: number | null, inputPrice: number | null, outputPrice: number | null, askedOn: string, userId: number, status: ResponseStatus, error: string];

const insertQuestion = precompiled(14, (db: Kysely<DB>, ...[organizationId, threadId, agentId, projectId, historyId, query, model, llmConfigurationId, input, output, askedOn, userId, status, error]: QuestionArguments) => {
  const question = { agentId, projectId, historyId, query, model, llmConfigurationId, prices: { input, output }, askedOn, askedBy: { userId, email: '' } };
  return db
    .insertInto('agent_responses')
    .values({ ...questionColumns(organizationId, question), thread_id: threadId, status, error })
    .returning('id');
});

type OutcomeArguments = [organizationId: number, responseId: number, answer: string, status: ResponseStatus, error: string | null, finishReason: FinishReason | null, citations: string, toolCalls: string, guardrailActions: string, promptTokens: number, completionTokens: number, tokensEstimated: number, cost: number | null, latencyMs: number, firstTokenMs: number | null];

const completeResponse = precompiled(15, (db: Kysely<DB>, ...[organizationId, responseId, answer, status, error, finishReason, citations, toolCalls, guardrailActions, promptTokens, completionTokens, tokensEstimated, cost, latencyMs, firstTokenMs]: OutcomeArguments) =>
  db
    .updateTable('agent_responses')
    .set({
      answer,
      status,
      error,
      finish_reason: finishReason,
      citations,
      tool_calls: toolCalls,
      guardrail_actions: guardrailActions,
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      tokens_estimated: tokensEstimated,
      cost,
      latency_ms: latencyMs,
      first_token_ms: firstTokenMs,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', responseId),
);

const touchThread = precompiled(2, (db: Kysely<DB>, threadId: number, at: string) => db.updateTable('chat_threads').set({ last_activity_on: at }).where('id', '=', threadId));

/** A thread to open for the question: its title, and when. */
export interface NewThread {
  agentId: number;
  userId: number;
  title: string;
}

export interface ThreadTurns {
  agentId: number;
  userId: number;
  /** The completed responses, oldest first. */
  responses: { id: number; query: string; answer: string; finishReason: FinishReason | null }[];
}

export class AskRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The permission the user holds on each of the corpora (of the organization) that has one granted. */
  async grantsOn(organizationId: number, userId: number, corpusIds: number[]): Promise<Map<number, CorpusPermission>> {
    if (corpusIds.length === 0) return new Map();
    const wanted = new Set(corpusIds);
    const rows = await grantsOfUser(this.db, organizationId, userId);
    return new Map(rows.filter((row) => wanted.has(row.corpus_id)).map((row) => [row.corpus_id, row.permission]));
  }

  /** The agent's newest history record: the configuration it has now. */
  async latestHistoryId(organizationId: number, agentId: number): Promise<number | null> {
    const [row] = await latestHistory(this.db, organizationId, agentId);
    return row?.id ?? null;
  }

  /** The thread (not deleted) and its completed responses, oldest first; undefined when there is no such thread. */
  async threadTurns(organizationId: number, threadId: number): Promise<ThreadTurns | undefined> {
    const rows = await threadWithTurns(this.db, organizationId, threadId);
    if (rows.length === 0) return undefined;
    const responses = rows.flatMap((row) => (row.response_id === null ? [] : [{ id: row.response_id, query: row.query!, answer: row.answer!, finishReason: row.finish_reason }]));
    return { agentId: rows[0]!.agent_id, userId: rows[0]!.user_id, responses };
  }

  /**
   * The question's response, in the thread given or one opened for it, with the status and error it
   * has until its answer ends, and its usage event: one transaction. Its response and thread.
   */
  recordQuestion(organizationId: number, thread: number | NewThread, question: AskedQuestion, until: { status: 'failed'; error: string }): Promise<{ id: number; threadId: number }> {
    const db = this.db;
    return runTransaction(db, function* () {
      const threadId =
        typeof thread === 'number' ? thread : (yield* rowsOf(insertThread.bind(db, organizationId, thread.agentId, thread.userId, thread.title, question.askedOn)))[0]!.id;
      const { prices } = question;
      const [row] = yield* rowsOf(
        insertQuestion.bind(db, organizationId, threadId, question.agentId, question.projectId, question.historyId, question.query, question.model, question.llmConfigurationId, prices.input, prices.output, question.askedOn, question.askedBy.userId, until.status, until.error),
      );
      yield* rowsOf(answerEventOfResponse.bind(db, organizationId, row!.id));
      return { id: row!.id, threadId };
    });
  }

  /**
   * The response completed with the answer's outcome, its usage event rewritten from it and its thread
   * marked as used at `at`: one transaction, so that the event and the thread's activity are there
   * exactly when the outcome is.
   */
  finishResponse(organizationId: number, recorded: { id: number; threadId: number }, outcome: AnswerOutcome, at: string): Promise<void> {
    const db = this.db;
    const c = outcomeColumns(outcome);
    return runTransaction(db, function* () {
      yield* rowsOf(
        completeResponse.bind(db, organizationId, recorded.id, c.answer, c.status, c.error, c.finish_reason, c.citations, c.tool_calls, c.guardrail_actions, c.prompt_tokens, c.completion_tokens, c.tokens_estimated, c.cost, c.latency_ms, c.first_token_ms),
      );
      yield* rowsOf(answerEventOfResponse.bind(db, organizationId, recorded.id));
      yield* rowsOf(touchThread.bind(db, recorded.threadId, at));
    });
  }
}

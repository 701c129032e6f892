// Chat logs across threads. Owners and admins read the whole organization's; the leads of a team
// read their own threads and those with their teams' agents; anyone else reads only their own, and
// naming another user is refused (403). Everything is checked before the first byte is written; the
// rows are then read in batches by id, so that memory stays flat however long the log.
import { BadRequest, Forbidden, NotFound } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import { isAdmin } from '../auth/roles.js';
import type { Actor } from '../auth/actor.js';
import type { ChatLogBatchRow, ChatLogFilter } from './chat-logs.repo.js';
import type { ChatLogQueryInput, ChatLogRow } from './chat-logs.schemas.js';
import type { FeedbackFigures } from './feedback.repo.js';
import { threadPolicy } from './thread.policy.js';

/** Rows a query reads: few enough to hold at once (answers may be long), enough that queries cost little a row. */
export const CHAT_LOG_BATCH_ROWS = 500;

export class ChatLogsService {
  constructor(private readonly store: UnitOfWork) {}

  /** Checks the query and the caller's right to it, then returns the log's rows, batch by batch. */
  async open(actor: Actor, query: ChatLogQueryInput): Promise<AsyncGenerator<ChatLogRow[]>> {
    const filter = await this.filterFor(actor, query);
    return this.batches(actor, filter);
  }

  private async filterFor(actor: Actor, query: ChatLogQueryInput): Promise<ChatLogFilter> {
    const { repos } = this.store;
    const from = query.from === undefined ? undefined : new Date(query.from).toISOString();
    const to = query.to === undefined ? undefined : new Date(query.to).toISOString();
    if (from !== undefined && to !== undefined && from > to) {
      throw new BadRequest('from must not be after to', [{ pointer: '/query/from', message: 'must not be after to' }]);
    }
    if (query.agent_id !== undefined && !(await repos.agents.exists(actor.organizationId, query.agent_id))) throw new NotFound('agent', query.agent_id);
    if (query.project_id !== undefined && !(await repos.projects.find(actor.organizationId, query.project_id))) throw new NotFound('project', query.project_id);
    if (query.user_id !== undefined && query.user_id !== actor.userId) {
      if ((await repos.users.statesOf(actor.organizationId, [query.user_id])).length === 0) throw new NotFound('user', query.user_id);
      if (!isAdmin(actor) && !(await repos.chatLogs.leadsAnyTeam(actor.organizationId, actor.userId))) {
        throw new Forbidden('Only owners, admins and team leads may read the chat logs of other users');
      }
    }
    return { reader: threadPolicy.readerOf(actor), agentId: query.agent_id, projectId: query.project_id, userId: query.user_id, from, to, vote: query.vote };
  }

  private async *batches(actor: Actor, filter: ChatLogFilter): AsyncGenerator<ChatLogRow[]> {
    const { chatLogs, feedback } = this.store.repos;
    let afterId = 0;
    for (;;) {
      const rows = await chatLogs.batch(actor.organizationId, filter, afterId, CHAT_LOG_BATCH_ROWS);
      if (rows.length === 0) return;
      const figures = await feedback.figures(
        rows.map((row) => row.id),
        actor.userId,
      );
      yield rows.map((row) => chatLogRow(row, figures.get(row.id)!));
      if (rows.length < CHAT_LOG_BATCH_ROWS) return;
      afterId = rows.at(-1)!.id;
    }
  }
}

function citationCount(citations: string): number {
  const value: unknown = JSON.parse(citations);
  return Array.isArray(value) ? value.length : 0;
}

function chatLogRow(row: ChatLogBatchRow, figures: FeedbackFigures): ChatLogRow {
  return {
    response_id: row.id,
    thread_id: row.thread_id,
    agent_id: row.agent_id,
    agent_name: row.agent_name,
    user_email: row.user_email,
    created_on: row.created_on,
    query: row.query,
    answer: row.answer,
    status: row.status,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    total_tokens: row.prompt_tokens + row.completion_tokens,
    cost: row.cost,
    latency_ms: row.latency_ms,
    model: row.model,
    citations: citationCount(row.citations),
    up_votes: figures.up,
    down_votes: figures.down,
    ratings: figures.ratings,
    average_rating: figures.average_rating,
  };
}

// Chat logs: responses across threads, read in keyset batches by id so that an export of any size
// holds one batch in memory at a time. Every read names the organization, leaves out deleted threads
// and holds only the threads the reader may read.
import type { Kysely } from 'kysely';
import type { DB, Vote } from '../../db/schema.js';
import type { ThreadReader } from './readable-threads.js';
import { readableBy } from './readable-threads.sql.js';

export interface ChatLogFilter {
  reader: ThreadReader;
  agentId?: number | undefined;
  projectId?: number | undefined;
  /** Owner of the threads. */
  userId?: number | undefined;
  /** Asked at or after (ISO 8601). */
  from?: string | undefined;
  /** Asked before (ISO 8601). */
  to?: string | undefined;
  /** Only responses with at least one vote of this kind. */
  vote?: Vote | undefined;
}

export class ChatLogsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Up to `limit` responses of the log with ids above `afterId`, by id. */
  batch(organizationId: number, filter: ChatLogFilter, afterId: number, limit: number) {
    let query = this.db
      .selectFrom('agent_responses as r')
      .innerJoin('chat_threads as t', 't.id', 'r.thread_id')
      .innerJoin('agents as a', 'a.id', 'r.agent_id')
      .innerJoin('users as owner', 'owner.id', 't.user_id')
      .select([
        'r.id',
        'r.thread_id',
        'r.agent_id',
        'a.name as agent_name',
        'owner.email as user_email',
        'r.created_on',
        'r.query',
        'r.answer',
        'r.status',
        'r.prompt_tokens',
        'r.completion_tokens',
        'r.cost',
        'r.latency_ms',
        'r.model',
        'r.citations',
      ])
      .where('r.organization_id', '=', organizationId)
      .where('t.deleted_on', 'is', null)
      .where(readableBy(filter.reader))
      .where('r.id', '>', afterId);
    if (filter.agentId !== undefined) query = query.where('r.agent_id', '=', filter.agentId);
    if (filter.projectId !== undefined) query = query.where('r.project_id', '=', filter.projectId);
    if (filter.userId !== undefined) query = query.where('t.user_id', '=', filter.userId);
    if (filter.from !== undefined) query = query.where('r.created_on', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('r.created_on', '<', filter.to);
    const vote = filter.vote;
    if (vote !== undefined) {
      query = query.where(({ exists, selectFrom }) =>
        exists(selectFrom('response_votes as v').select('v.response_id').whereRef('v.response_id', '=', 'r.id').where('v.vote', '=', vote)),
      );
    }
    return query.orderBy('r.id', 'asc').limit(limit).execute();
  }

  /** Whether the user leads any team of the organization. */
  async leadsAnyTeam(organizationId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('team_members')
      .select('team_id')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .where('role', '=', 'lead')
      .executeTakeFirst();
    return row !== undefined;
  }
}

export type ChatLogBatchRow = Awaited<ReturnType<ChatLogsRepo['batch']>>[number];

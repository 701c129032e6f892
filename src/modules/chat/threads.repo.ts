// Chat threads: one person's conversation with one agent. Every query names the organization; a
// deleted thread is left out of every read (its responses stay, for cost and usage figures).
import type { Insertable, Kysely, Updateable } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { ChatThreadRow, ChatThreadsTable, DB } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

/** A thread with what its view shows and what deciding who sees it needs (the agent's team). */
export type ThreadRecord = ChatThreadRow & {
  created_by_email: string;
  modified_by_email: string;
  agent_team_id: number | null;
  response_count: number;
  tags: string[];
};

export interface ThreadFilter {
  userId: number;
  agentId?: number | undefined;
  pinned?: boolean | undefined;
  tag?: string | undefined;
}

export class ThreadsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private visible(organizationId: number) {
    return this.db.selectFrom('chat_threads as t').where('t.organization_id', '=', organizationId).where('t.deleted_on', 'is', null);
  }

  async insert(thread: Insertable<ChatThreadsTable>): Promise<number> {
    const row = await this.db.insertInto('chat_threads').values(thread).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  find(organizationId: number, threadId: number) {
    return this.visible(organizationId).selectAll('t').where('t.id', '=', threadId).executeTakeFirst();
  }

  /** Marks the thread as used now, so that lists put it first. */
  async touch(threadId: number, at: string): Promise<void> {
    await this.db.updateTable('chat_threads').set({ last_activity_on: at }).where('id', '=', threadId).execute();
  }

  /** Threads with their creators' and changers' e-mails, their agent's team and how many responses they hold. */
  private detailed(organizationId: number) {
    return this.visible(organizationId)
      .innerJoin('agents as a', 'a.id', 't.agent_id')
      .innerJoin('users as creator', 'creator.id', 't.created_by')
      .innerJoin('users as modifier', 'modifier.id', 't.modified_by')
      .selectAll('t')
      .select((eb) => [
        'creator.email as created_by_email',
        'modifier.email as modified_by_email',
        'a.team_id as agent_team_id',
        eb.selectFrom('agent_responses as r').select(eb.fn.countAll().as('n')).whereRef('r.thread_id', '=', 't.id').as('response_count'),
      ]);
  }

  async findRecord(organizationId: number, threadId: number): Promise<ThreadRecord | undefined> {
    const row = await this.detailed(organizationId).where('t.id', '=', threadId).executeTakeFirst();
    return row && (await this.withTags([row]))[0];
  }

  /** One person's threads, the most recently active first. */
  async listOfUser(organizationId: number, filter: ThreadFilter, window: ListWindow): Promise<ListSlice<ThreadRecord>> {
    let query = this.detailed(organizationId).where('t.user_id', '=', filter.userId);
    if (filter.agentId !== undefined) query = query.where('t.agent_id', '=', filter.agentId);
    if (filter.pinned !== undefined) query = query.where('t.pinned', '=', filter.pinned ? 1 : 0);
    const tag = filter.tag;
    if (tag !== undefined) {
      query = query.where((eb) => eb.exists(eb.selectFrom('chat_thread_tags as g').select('g.thread_id').whereRef('g.thread_id', '=', 't.id').where('g.tag', '=', tag)));
    }
    const { items, total } = await selectSlice(query.orderBy('t.last_activity_on', 'desc').orderBy('t.id', 'desc'), window);
    return { items: await this.withTags(items), total };
  }

  async update(organizationId: number, threadId: number, fields: Updateable<ChatThreadsTable>): Promise<void> {
    await this.db.updateTable('chat_threads').set(fields).where('organization_id', '=', organizationId).where('id', '=', threadId).execute();
  }

  /** Replaces the thread's tags. */
  async setTags(threadId: number, tags: string[]): Promise<void> {
    await this.db.deleteFrom('chat_thread_tags').where('thread_id', '=', threadId).execute();
    if (tags.length) await this.db.insertInto('chat_thread_tags').values(tags.map((tag) => ({ thread_id: threadId, tag }))).execute();
  }

  /** Marks the thread deleted; false when there was no such thread to delete. */
  async softDelete(organizationId: number, threadId: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('chat_threads')
      .set({ deleted_on: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', threadId)
      .where('deleted_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async withTags<Row extends ChatThreadRow & { response_count: unknown }>(rows: Row[]): Promise<(Row & { tags: string[]; response_count: number })[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const tags = await this.db.selectFrom('chat_thread_tags').select(['thread_id', 'tag']).where('thread_id', 'in', ids).orderBy('tag').execute();
    const byThread = new Map<number, string[]>();
    for (const { thread_id, tag } of tags) byThread.set(thread_id, [...(byThread.get(thread_id) ?? []), tag]);
    // PostgreSQL counts as bigint, which its driver reads as a string.
    return rows.map((row) => ({ ...row, response_count: Number(row.response_count ?? 0), tags: byThread.get(row.id) ?? [] }));
  }
}

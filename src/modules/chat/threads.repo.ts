// Chat threads: one person's conversation with one agent. Every query names the organization; a
// deleted thread is left out of every read (its responses stay, for cost and usage figures).
import type { Insertable, Kysely } from 'kysely';
import type { ChatThreadsTable, DB } from '../../db/schema.js';

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
}

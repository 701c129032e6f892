import type { Insertable, Kysely } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, NotificationsTable } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';

/** Each user's notifications; every query names the organization and the user. */
export class NotificationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private ofUser(organizationId: number, userId: number, unreadOnly: boolean) {
    let query = this.db.selectFrom('notifications').where('organization_id', '=', organizationId).where('user_id', '=', userId);
    if (unreadOnly) query = query.where('read_on', 'is', null);
    return query;
  }

  async insertMany(rows: Insertable<NotificationsTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('notifications').values(rows).execute();
  }

  /** Unread first, then newest first. */
  list(organizationId: number, userId: number, unreadOnly: boolean, window: ListWindow) {
    const query = this.ofUser(organizationId, userId, unreadOnly)
      .selectAll()
      .orderBy((eb) => eb.case().when('read_on', 'is', null).then(0).else(1).end())
      .orderBy('id', 'desc');
    return selectSlice(query, window);
  }

  /** Marks one notification read (keeping the first time it was read); undefined when the user has no such one. */
  markRead(organizationId: number, userId: number, notificationId: number, at: string) {
    return this.db
      .updateTable('notifications')
      .set((eb) => ({ read_on: eb.fn.coalesce('read_on', eb.val(at)) }))
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .where('id', '=', notificationId)
      .returningAll()
      .executeTakeFirst();
  }

  async markAllRead(organizationId: number, userId: number, at: string): Promise<number> {
    const result = await this.db
      .updateTable('notifications')
      .set({ read_on: at })
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .where('read_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

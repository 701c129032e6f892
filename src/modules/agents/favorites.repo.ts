import type { Kysely } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { DB } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type FavoriteList = 'recent' | 'starred';

/** Each user's recently used and starred agents: per-user lists that point at agents. */
export class FavoritesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async markUsed(userId: number, agentId: number, at: string): Promise<void> {
    await this.db
      .insertInto('agent_recent')
      .values({ user_id: userId, agent_id: agentId, used_on: at })
      .onConflict((oc) => oc.columns(['user_id', 'agent_id']).doUpdateSet({ used_on: at }))
      .execute();
  }

  async star(userId: number, agentId: number, at: string): Promise<void> {
    await this.db
      .insertInto('agent_stars')
      .values({ user_id: userId, agent_id: agentId, created_on: at })
      .onConflict((oc) => oc.columns(['user_id', 'agent_id']).doNothing())
      .execute();
  }

  async remove(list: FavoriteList, userId: number, agentId: number): Promise<boolean> {
    const table = list === 'recent' ? 'agent_recent' : 'agent_stars';
    const result = await this.db.deleteFrom(table).where('user_id', '=', userId).where('agent_id', '=', agentId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The ids of the user's agents on a list, most recent first, leaving out deleted agents. */
  async listAgentIds(list: FavoriteList, organizationId: number, userId: number, window: ListWindow): Promise<ListSlice<number>> {
    const base =
      list === 'recent'
        ? this.db.selectFrom('agent_recent as f').select(['f.agent_id', 'f.used_on as at'])
        : this.db.selectFrom('agent_stars as f').select(['f.agent_id', 'f.created_on as at']);
    const query = base
      .innerJoin('agents as a', 'a.id', 'f.agent_id')
      .where('f.user_id', '=', userId)
      .where('a.organization_id', '=', organizationId)
      .where('a.deleted_on', 'is', null)
      .orderBy('at', 'desc')
      .orderBy('f.agent_id', 'desc');
    const { items, total } = await selectSlice(query, window);
    return { items: items.map((row) => row.agent_id), total };
  }
}

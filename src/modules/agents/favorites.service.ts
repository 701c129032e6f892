// Each user's recent and starred agents. Only agents the user can see can be put on a list, and
// a deleted agent drops off every list.
import { now } from '../../clock.js';
import type { Database } from '../../db/database.js';
import { NotFound } from '../../errors.js';
import type { PageRequest, PageResult } from '../../pagination.js';
import type { Actor } from '../auth/actor.js';
import { presentAgent } from './agent.presenter.js';
import { AgentsRepo } from './agents.repo.js';
import type { AgentView } from './agents.schemas.js';
import { FavoritesRepo, type FavoriteList } from './favorites.repo.js';

export class FavoritesService {
  constructor(private readonly database: Database) {}

  private agents() {
    return new AgentsRepo(this.database.db, this.database.dialect);
  }

  private async requireAgent(actor: Actor, agentId: number): Promise<void> {
    if (!(await this.agents().exists(actor.organizationId, agentId))) throw new NotFound('agent', agentId);
  }

  async add(actor: Actor, list: FavoriteList, agentId: number): Promise<void> {
    await this.requireAgent(actor, agentId);
    const favorites = new FavoritesRepo(this.database.db);
    if (list === 'recent') await favorites.markUsed(actor.userId, agentId, now());
    else await favorites.star(actor.userId, agentId, now());
  }

  async remove(actor: Actor, list: FavoriteList, agentId: number): Promise<void> {
    await this.requireAgent(actor, agentId);
    if (!(await new FavoritesRepo(this.database.db).remove(list, actor.userId, agentId))) {
      throw new NotFound(`Agent ${agentId} on the ${list} list`);
    }
  }

  async list(actor: Actor, list: FavoriteList, page: PageRequest): Promise<PageResult<AgentView>> {
    const { ids, total } = await new FavoritesRepo(this.database.db).agentIds(list, actor.organizationId, actor.userId, page);
    const { rows } = ids.length
      ? await this.agents().list(actor.organizationId, { ids }, { page: 1, page_size: ids.length })
      : { rows: [] };
    const byId = new Map(rows.map((row) => [row.id, row]));
    const items = ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [presentAgent(row)] : [];
    });
    return { items, page: page.page, page_size: page.page_size, total };
  }
}

// Each user's recent and starred agents. Only agents the user can see can be put on a list, and
// a deleted agent drops off every list.
import { now } from '../../clock.js';
import { NotFound } from '../../errors.js';
import { asPage, windowOf, type PageRequest, type PageResult } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { presentAgent } from './agent.presenter.js';
import type { AgentView } from './agents.schemas.js';
import type { FavoriteList } from './favorites.repo.js';

export class FavoritesService {
  constructor(private readonly store: UnitOfWork) {}

  private async requireAgent(actor: Actor, agentId: number): Promise<void> {
    if (!(await this.store.repos.agents.exists(actor.organizationId, agentId))) throw new NotFound('agent', agentId);
  }

  async add(actor: Actor, list: FavoriteList, agentId: number): Promise<void> {
    await this.requireAgent(actor, agentId);
    const { favorites } = this.store.repos;
    if (list === 'recent') await favorites.markUsed(actor.userId, agentId, now());
    else await favorites.star(actor.userId, agentId, now());
  }

  async remove(actor: Actor, list: FavoriteList, agentId: number): Promise<void> {
    await this.requireAgent(actor, agentId);
    if (!(await this.store.repos.favorites.remove(list, actor.userId, agentId))) {
      throw new NotFound(`Agent ${agentId} on the ${list} list`);
    }
  }

  async list(actor: Actor, list: FavoriteList, page: PageRequest): Promise<PageResult<AgentView>> {
    const { agents, favorites } = this.store.repos;
    const { items: ids, total } = await favorites.listAgentIds(list, actor.organizationId, actor.userId, windowOf(page));
    const { items: rows } = ids.length ? await agents.list(actor.organizationId, { ids }, { limit: ids.length, offset: 0 }) : { items: [] };
    const byId = new Map(rows.map((row) => [row.id, row]));
    const items = ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [presentAgent(row)] : [];
    });
    return asPage({ items, total }, page);
  }
}

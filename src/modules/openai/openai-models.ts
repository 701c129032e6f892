// Agents as OpenAI models: each agent the caller may ask is a model whose id is its alias, or
// agent-{id} where it has none (or shares its alias with another agent the caller may ask).
import { AppError, BadRequest } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { AgentWithUsers } from '../agents/agents.repo.js';

const ID_FORM = /^agent-(\d{1,15})$/;

/** OpenAI's timestamps: Unix seconds. */
export const unixSeconds = (timestamp: string) => Math.floor(Date.parse(timestamp) / 1000);

/** The model id of each agent, given all agents listed together (an alias two of them share names neither). */
function modelIds(agents: AgentWithUsers[]): Map<number, string> {
  const aliasCount = new Map<string, number>();
  for (const agent of agents) if (agent.alias) aliasCount.set(agent.alias, (aliasCount.get(agent.alias) ?? 0) + 1);
  return new Map(agents.map((agent) => [agent.id, agent.alias && aliasCount.get(agent.alias) === 1 ? agent.alias : `agent-${agent.id}`]));
}

/** A 404 that points at the model field (OpenAI's `param`). */
const unknownModel = (model: string) => new AppError(404, 'not_found', `Model ${model} not found`, [{ pointer: '/body/model', message: 'names no agent you may ask' }]);

export class OpenAiModels {
  constructor(private readonly store: UnitOfWork) {}

  /** The agents the caller may ask: those of the caller's teams and of no team, not inactive. */
  async list(actor: Actor) {
    const { items } = await this.store.repos.agents.list(
      actor.organizationId,
      { accessibleTo: actor.userId, statuses: ['draft', 'active'], sort: { field: 'id', direction: 'asc' } },
      { limit: undefined, offset: 0 },
    );
    const ids = modelIds(items);
    return {
      object: 'list' as const,
      data: items.map((agent) => ({ id: ids.get(agent.id)!, object: 'model' as const, created: unixSeconds(agent.created_on), owned_by: agent.name })),
    };
  }

  /** The agent a model id names: an alias first, then agent-{id}. Whether the caller may ask it is the runtime's to say. */
  async agentOf(actor: Actor, model: string): Promise<number> {
    const byAlias = await this.store.repos.agents.idsWithAlias(actor.organizationId, model);
    if (byAlias.length > 1) {
      throw new BadRequest(`Several agents have the alias ${model}; name one as agent-{id}`, [{ pointer: '/body/model', message: 'is ambiguous' }]);
    }
    if (byAlias.length === 1) return byAlias[0]!;
    const match = ID_FORM.exec(model);
    if (!match) throw unknownModel(model);
    const agentId = Number(match[1]);
    if (!(await this.store.repos.agents.exists(actor.organizationId, agentId))) throw unknownModel(model);
    return agentId;
  }
}

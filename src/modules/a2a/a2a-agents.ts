// Which agent an A2A path names, for which caller. The A2A door serves the agents the caller may
// reach as a client (those GET /api/v2/agents/accessible lists, and the OpenAI-compatible door lists
// as models: of no team, or of one of the caller's teams); any other agent, of this organization or
// another, is not found. Then the organization's `a2a` flag: off, 403 (after the 404, as everywhere).
import { AppError, BadRequest } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { AgentWithUsers } from '../agents/agents.repo.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';

const ID_FORM = /^[1-9][0-9]{0,14}$/;

export class A2aAgents {
  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
  ) {}

  /** The agent the path names (its alias first, then its id), reachable by the caller, with A2A on. */
  async resolve(actor: Actor, reference: string): Promise<AgentWithUsers> {
    const repos = this.store.repos;
    const byAlias = await repos.agents.idsWithAlias(actor.organizationId, reference);
    if (byAlias.length > 1) {
      throw new BadRequest(`Several agents have the alias ${reference}; name one by its id`, [{ pointer: '/params/agent_id', message: 'is ambiguous' }]);
    }
    const agentId = byAlias[0] ?? (ID_FORM.test(reference) ? Number(reference) : undefined);
    const agent = agentId === undefined ? undefined : await repos.agents.findVisible(actor.organizationId, agentId);
    if (!agent || !(await this.reachable(actor, agent))) throw new AppError(404, 'not_found', `Agent ${reference} not found`);
    await this.flags.require(actor, 'a2a');
    return agent;
  }

  private async reachable(actor: Actor, agent: AgentWithUsers): Promise<boolean> {
    if (agent.team_id === null) return true;
    return (await this.store.repos.teams.roleOf(actor.organizationId, agent.team_id, actor.userId)) !== null;
  }
}

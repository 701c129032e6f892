// Agents seen through teams and projects: the caller's team role for an agent, the agents a caller may
// use across its teams, and the agents of one team or one project.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, Id, IdParams, Page, ok, responses } from '../../http/schemas.js';
import { AgentSchema, TeamRoleQuery, TeamRoleSchema, scopedAgentsQuery } from './agents.schemas.js';
import { parseSort } from './agents.service.js';

const tags = ['agents'];

/** The page and the filters of a scoped list, as the service takes them. */
function listArguments(query: { page: number; page_size: number; q?: string | undefined; status?: 'draft' | 'active' | 'inactive' | undefined; sort?: string | undefined }) {
  const { page, page_size, q, status, sort } = query;
  return { filter: { q, statuses: status ? [status] : undefined, sort: parseSort(sort) }, page: { page, page_size } };
}

export const teamAgentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agents = app.services.agents;
  const listQuery = scopedAgentsQuery(app.config.limits.pageSizeMax);

  app.get(
    '/api/v2/agents/:agent_id/team-role',
    {
      schema: {
        operationId: 'getAgentTeamRole',
        tags,
        summary: "The caller's (or ?user_id=) team role for this agent",
        description: 'With what that role (and the organization role) lets the user do to the agent.',
        params: IdParams('agent_id'),
        querystring: TeamRoleQuery,
        response: responses({ 200: Envelope(TeamRoleSchema) }, [404]),
      },
    },
    async (request) => ok('Team role', await agents.teamRole(request.actor, request.params.agent_id, request.query.user_id)),
  );

  app.get(
    '/api/v2/agents/accessible',
    {
      schema: {
        operationId: 'listAccessibleAgents',
        tags,
        summary: 'Agents the caller can use across all of its teams',
        description: "The agents of every team the caller belongs to, and the organization's agents that belong to no team.",
        querystring: listQuery,
        response: responses({ 200: Envelope(Page(AgentSchema)) }),
      },
    },
    async (request) => {
      const { filter, page } = listArguments(request.query);
      return ok('Accessible agents', await agents.accessible(request.actor, filter, page));
    },
  );

  app.get(
    '/api/v2/projects/:project_id/agents',
    {
      schema: {
        operationId: 'listProjectAgents',
        tags,
        summary: 'Agents of a project',
        params: IdParams('project_id'),
        querystring: listQuery,
        response: responses({ 200: Envelope(Page(AgentSchema)) }, [404]),
      },
    },
    async (request) => {
      const { filter, page } = listArguments(request.query);
      return ok('Agents of the project', await agents.ofProject(request.actor, request.params.project_id, filter, page));
    },
  );

  app.get(
    '/api/v2/teams/:team_id/agents',
    {
      schema: {
        operationId: 'listTeamAgents',
        tags,
        summary: 'Agents of a team (optionally within ?project_id=)',
        params: IdParams('team_id'),
        querystring: Type.Composite([listQuery, Type.Object({ project_id: Type.Optional(Id('Only agents of this project too')) })]),
        response: responses({ 200: Envelope(Page(AgentSchema)) }, [404]),
      },
    },
    async (request) => {
      const { filter, page } = listArguments(request.query);
      return ok('Agents of the team', await agents.ofTeam(request.actor, request.params.team_id, request.query.project_id, filter, page));
    },
  );
};

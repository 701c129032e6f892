import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, IdParams, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import {
  AddTeammateBody,
  ChangeTeammateBody,
  CreateTeamBody,
  RemovedTeammateSchema,
  TeamSchema,
  TeammateSchema,
  UpdateTeamBody,
  listTeamsQuery,
} from './teams.schemas.js';

const tags = ['teams'];
const TeamParams = IdParams('team_id');
const TeammateParams = IdParams('team_id', 'user_id');

export const teamsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const teams = app.services.teams;
  const pageSizeMax = app.config.limits.pageSizeMax;

  app.get(
    '/api/v2/teams',
    {
      schema: {
        operationId: 'listTeams',
        tags,
        summary: 'List teams',
        description: "Every team of the organization, by name; ?mine=true for the caller's own.",
        querystring: listTeamsQuery(pageSizeMax),
        response: responses({ 200: Envelope(Page(TeamSchema)) }),
      },
    },
    async (request) => {
      const { q, mine, ...page } = request.query;
      return ok('Teams', asPage(await teams.list(request.actor, { q, mine }, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/teams',
    {
      schema: { operationId: 'createTeam', tags, summary: 'Create a team', body: CreateTeamBody, response: responses({ 201: Envelope(TeamSchema) }, [403, 409]) },
    },
    async (request, reply) => reply.code(201).send(ok('Team created', await teams.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/teams/:team_id',
    { schema: { operationId: 'getTeam', tags, summary: 'One team', params: TeamParams, response: responses({ 200: Envelope(TeamSchema) }, [404]) } },
    async (request) => ok('Team', await teams.get(request.actor, request.params.team_id)),
  );

  app.put(
    '/api/v2/teams/:team_id',
    {
      schema: {
        operationId: 'updateTeam',
        tags,
        summary: 'Update a team',
        params: TeamParams,
        body: UpdateTeamBody,
        response: responses({ 200: Envelope(TeamSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Team updated', await teams.update(request.actor, request.params.team_id, request.body)),
  );

  app.delete(
    '/api/v2/teams/:team_id',
    {
      schema: {
        operationId: 'deleteTeam',
        tags,
        summary: 'Delete a team',
        description: 'Its memberships go with it; its agents stay, belonging to no team.',
        params: TeamParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await teams.delete(request.actor, request.params.team_id);
      return ok('Team deleted', { id: request.params.team_id });
    },
  );

  app.get(
    '/api/v2/teams/:team_id/members',
    {
      schema: {
        operationId: 'listTeamMembers',
        tags,
        summary: 'Teammates with their roles',
        params: TeamParams,
        querystring: PageQuery(pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(TeammateSchema)) }, [404]),
      },
    },
    async (request) => ok('Teammates', asPage(await teams.members(request.actor, request.params.team_id, windowOf(request.query)), request.query)),
  );

  app.post(
    '/api/v2/teams/:team_id/members',
    {
      schema: {
        operationId: 'addTeamMember',
        tags,
        summary: 'Add a teammate with a role',
        description: 'The user is notified. A user already in the team is a 409 (change the role with PUT).',
        params: TeamParams,
        body: AddTeammateBody,
        response: responses({ 201: Envelope(TeammateSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Teammate added', await teams.addMember(request.actor, request.params.team_id, request.body))),
  );

  app.put(
    '/api/v2/teams/:team_id/members/:user_id',
    {
      schema: {
        operationId: 'updateTeamMember',
        tags,
        summary: "Change a teammate's role",
        params: TeammateParams,
        body: ChangeTeammateBody,
        response: responses({ 200: Envelope(TeammateSchema) }, [403, 404]),
      },
    },
    async (request) =>
      ok('Teammate role changed', await teams.changeMemberRole(request.actor, request.params.team_id, request.params.user_id, request.body.role)),
  );

  app.delete(
    '/api/v2/teams/:team_id/members/:user_id',
    {
      schema: {
        operationId: 'removeTeamMember',
        tags,
        summary: 'Remove a teammate',
        description: 'Leads, owners and admins remove anyone; every member may leave.',
        params: TeammateParams,
        response: responses({ 200: Envelope(RemovedTeammateSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Teammate removed', await teams.removeMember(request.actor, request.params.team_id, request.params.user_id)),
  );
};

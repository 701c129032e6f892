// The legacy generation of users, teams, projects, notifications and feature flags: thin adapters over
// the same services as /api/v2, answering bare resources and bare arrays under paths with a trailing slash.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LEGACY_LIST_DESCRIPTION, legacyList, legacyListQuery, legacyWindow } from '../../http/legacy.js';
import { IdParams, responses } from '../../http/schemas.js';
import { FlagSchema } from '../flags/flags.schemas.js';
import { NotificationSchema } from '../notifications/notifications.schemas.js';
import { CreateProjectBody, ProjectSchema } from '../projects/projects.schemas.js';
import { TeamSchema } from '../teams/teams.schemas.js';
import { MeSchema, UserSchema } from '../users/users.schemas.js';

const tags = ['legacy'];

export const legacyPeopleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users, teams, projects, notifications, flags } = app.services;
  const listQuery = legacyListQuery(app.config.limits.pageSizeMax);
  const noTeams = { includeTeams: false };

  app.get(
    '/api/users/',
    { schema: { operationId: 'listUsersLegacy', tags, summary: 'Users', description: LEGACY_LIST_DESCRIPTION, querystring: listQuery, response: responses({ 200: Type.Array(UserSchema) }) } },
    async (request, reply) => legacyList(reply, await users.list(request.actor, {}, legacyWindow(request.query))),
  );

  app.get(
    '/api/users/me/',
    { schema: { operationId: 'getCurrentUserLegacy', tags, summary: 'The calling user', response: responses({ 200: MeSchema }) } },
    async (request) => users.me(request.actor),
  );

  app.get(
    '/api/teams/',
    { schema: { operationId: 'listTeamsLegacy', tags, summary: 'Teams', description: LEGACY_LIST_DESCRIPTION, querystring: listQuery, response: responses({ 200: Type.Array(TeamSchema) }) } },
    async (request, reply) => legacyList(reply, await teams.list(request.actor, {}, legacyWindow(request.query))),
  );

  app.get(
    '/api/projects/',
    { schema: { operationId: 'listProjectsLegacy', tags, summary: 'Projects', description: LEGACY_LIST_DESCRIPTION, querystring: listQuery, response: responses({ 200: Type.Array(ProjectSchema) }) } },
    async (request, reply) => legacyList(reply, await projects.list(request.actor, {}, legacyWindow(request.query), noTeams)),
  );

  app.post(
    '/api/projects/',
    { schema: { operationId: 'createProjectLegacy', tags, summary: 'Create a project', body: CreateProjectBody, response: responses({ 201: ProjectSchema }, [403, 404, 409]) } },
    async (request, reply) => reply.code(201).send(await projects.create(request.actor, request.body)),
  );

  app.get(
    '/api/projects/:project_id/',
    { schema: { operationId: 'getProjectLegacy', tags, summary: 'One project', params: IdParams('project_id'), response: responses({ 200: ProjectSchema }, [404]) } },
    async (request) => projects.get(request.actor, request.params.project_id, noTeams),
  );

  app.get(
    '/api/notifications/',
    {
      schema: { operationId: 'listNotificationsLegacy', tags, summary: 'Notifications', description: `Unread first. ${LEGACY_LIST_DESCRIPTION}`, querystring: listQuery, response: responses({ 200: Type.Array(NotificationSchema) }) },
    },
    async (request, reply) => legacyList(reply, await notifications.list(request.actor, false, legacyWindow(request.query))),
  );

  app.get(
    '/api/feature-flags/',
    { schema: { operationId: 'listFeatureFlagsLegacy', tags, summary: 'Feature flags', response: responses({ 200: Type.Array(FlagSchema) }) } },
    async (request) => flags.list(request.actor),
  );
};

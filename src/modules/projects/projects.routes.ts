import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Deleted, Envelope, IdParams, List, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import {
  AddProjectUsersBody,
  CreateProjectBody,
  IncludeQuery,
  ProjectSchema,
  ProjectsByIdsBody,
  UpdateProjectBody,
  filterProjectsBody,
  listProjectsQuery,
} from './projects.schemas.js';

const tags = ['projects'];
const ProjectParams = IdParams('project_id');
const withTeams = (query: { include?: 'teams' | undefined }) => ({ includeTeams: query.include === 'teams' });

export const projectsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const projects = app.services.projects;
  const pageSizeMax = app.config.limits.pageSizeMax;

  app.get(
    '/api/v2/projects',
    {
      schema: {
        operationId: 'listProjects',
        tags,
        summary: 'List projects',
        description: 'Every project of the organization, by name; filter by q, team_id, or mine=true for those the caller is a member of.',
        querystring: listProjectsQuery(pageSizeMax),
        response: responses({ 200: Envelope(Page(ProjectSchema)) }),
      },
    },
    async (request) => {
      const { q, team_id, mine, include, ...page } = request.query;
      const filter = { q, teamIds: team_id === undefined ? undefined : [team_id], memberIds: mine ? [request.actor.userId] : undefined };
      return ok('Projects', asPage(await projects.list(request.actor, filter, windowOf(page), withTeams({ include })), page));
    },
  );

  app.post(
    '/api/v2/projects',
    {
      schema: { operationId: 'createProject', tags, summary: 'Create a project', body: CreateProjectBody, response: responses({ 201: Envelope(ProjectSchema) }, [403, 404, 409]) },
    },
    async (request, reply) => reply.code(201).send(ok('Project created', await projects.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/projects/recent',
    {
      schema: {
        operationId: 'listRecentProjects',
        tags,
        summary: "The caller's recent projects",
        description: 'Projects the caller opened, created or changed, newest first.',
        querystring: Type.Composite([PageQuery(pageSizeMax, {}), IncludeQuery]),
        response: responses({ 200: Envelope(Page(ProjectSchema)) }),
      },
    },
    async (request) => {
      const { include, ...page } = request.query;
      return ok('Recent projects', asPage(await projects.recent(request.actor, windowOf(page), withTeams({ include })), page));
    },
  );

  app.post(
    '/api/v2/projects/by-ids',
    {
      schema: {
        operationId: 'getProjectsByIds',
        tags,
        summary: 'Projects by a list of identifiers',
        description: 'In the order asked, each once; ids of no project the caller can see are left out.',
        querystring: IncludeQuery,
        body: ProjectsByIdsBody,
        response: responses({ 200: Envelope(List(ProjectSchema)) }),
      },
    },
    async (request) => ok('Projects', { items: await projects.byIds(request.actor, request.body.ids, withTeams(request.query)) }),
  );

  app.post(
    '/api/v2/projects/filter',
    {
      schema: {
        operationId: 'filterProjects',
        tags,
        summary: 'Projects by a structured filter body',
        querystring: IncludeQuery,
        body: filterProjectsBody(pageSizeMax),
        response: responses({ 200: Envelope(Page(ProjectSchema)) }),
      },
    },
    async (request) => {
      const { page = 1, page_size = 20, ...body } = request.body;
      const filter = {
        q: body.q,
        ids: body.ids,
        teamIds: body.team_ids,
        memberIds: body.user_ids,
        createdBy: body.created_by,
        createdAfter: body.created_after,
        createdBefore: body.created_before,
      };
      const pageRequest = { page, page_size };
      return ok('Projects', asPage(await projects.list(request.actor, filter, windowOf(pageRequest), withTeams(request.query)), pageRequest));
    },
  );

  app.get(
    '/api/v2/projects/:project_id',
    {
      schema: {
        operationId: 'getProject',
        tags,
        summary: 'One project (?include=teams for team details)',
        params: ProjectParams,
        querystring: IncludeQuery,
        response: responses({ 200: Envelope(ProjectSchema) }, [404]),
      },
    },
    async (request) => ok('Project', await projects.get(request.actor, request.params.project_id, withTeams(request.query))),
  );

  app.put(
    '/api/v2/projects/:project_id',
    {
      schema: {
        operationId: 'updateProject',
        tags,
        summary: 'Update a project',
        params: ProjectParams,
        body: UpdateProjectBody,
        response: responses({ 200: Envelope(ProjectSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Project updated', await projects.update(request.actor, request.params.project_id, request.body)),
  );

  app.delete(
    '/api/v2/projects/:project_id',
    {
      schema: {
        operationId: 'deleteProject',
        tags,
        summary: 'Delete a project',
        description: 'Its agents stay, belonging to no project.',
        params: ProjectParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await projects.delete(request.actor, request.params.project_id);
      return ok('Project deleted', { id: request.params.project_id });
    },
  );

  app.post(
    '/api/v2/projects/:project_id/users',
    {
      schema: {
        operationId: 'addProjectUser',
        tags,
        summary: 'Add users to a project',
        description: 'Users already members stay; those added are notified.',
        params: ProjectParams,
        body: AddProjectUsersBody,
        response: responses({ 200: Envelope(ProjectSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Users added', await projects.addUsers(request.actor, request.params.project_id, request.body.user_ids)),
  );

  app.delete(
    '/api/v2/projects/:project_id/users/:user_id',
    {
      schema: {
        operationId: 'removeProjectUser',
        tags,
        summary: 'Remove a user from a project',
        description: 'Members (not viewers), owners and admins remove anyone; every member may leave.',
        params: IdParams('project_id', 'user_id'),
        response: responses({ 200: Envelope(ProjectSchema) }, [403, 404]),
      },
    },
    async (request) => ok('User removed', await projects.removeUser(request.actor, request.params.project_id, request.params.user_id)),
  );
};

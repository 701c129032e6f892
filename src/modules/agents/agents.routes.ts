import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IfNoneMatchHeaders, answeredNotModified, conditionalReadDocument } from '../../http/conditional-get.js';
import { Deleted, Envelope, IdParams, Page, ok, responses } from '../../http/schemas.js';
import {
  AgentSchema,
  AgentStatusView,
  CreateAgentBody,
  IfMatchHeaders,
  UpdateAgentBody,
  filterAgentsBody,
  listAgentsQuery,
} from './agents.schemas.js';
import { parseIfMatch, parseSort } from './agents.service.js';

const tags = ['agents'];
const AgentParams = IdParams('agent_id');

export const agentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agents = app.services.agents;
  const pageSizeMax = app.config.limits.pageSizeMax;

  app.get(
    '/api/v2/agents',
    {
      schema: {
        operationId: 'listAgents',
        tags,
        summary: 'List agents visible to the caller',
        description:
          'Paginated; filter by q (name or description contains), status, project_id and team_id; sort by a field. ' +
          'ETag names the answer; with If-None-Match holding it, 304 and no body, no agent read.',
        querystring: listAgentsQuery(pageSizeMax),
        headers: IfNoneMatchHeaders,
        'x-document': conditionalReadDocument,
        response: responses({ 200: Envelope(Page(AgentSchema)) }),
      },
    },
    async (request, reply) => {
      const { page, page_size, q, status, sort, project_id, team_id } = request.query;
      const tag = await app.services.agentTags.ofListing(request.actor, [page, page_size, q ?? null, status ?? null, sort ?? null, project_id ?? null, team_id ?? null]);
      const filter = {
        q,
        statuses: status ? [status] : undefined,
        projectIds: project_id === undefined ? undefined : [project_id],
        teamIds: team_id === undefined ? undefined : [team_id],
        sort: parseSort(sort),
      };
      return app.services.servedBytes.answer(request, reply, tag, async () => ({
        body: reply.serialize(ok('Agents', await agents.list(request.actor, filter, { page, page_size }))) as string,
        headers: {},
      }));
    },
  );

  app.post(
    '/api/v2/agents',
    {
      schema: {
        operationId: 'createAgent',
        tags,
        summary: 'Create an agent; writes its first history record',
        body: CreateAgentBody,
        'x-document': { responseHeaders: { 201: ['ETag'] } },
        response: responses({ 201: Envelope(AgentSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => {
      const agent = await agents.create(request.actor, request.body);
      return reply.code(201).header('etag', `"${agent.version}"`).send(ok('Agent created', agent));
    },
  );

  app.post(
    '/api/v2/agents/filter',
    {
      schema: {
        operationId: 'filterAgents',
        tags,
        summary: 'Filter agents by a structured filter body',
        body: filterAgentsBody(pageSizeMax),
        response: responses({ 200: Envelope(Page(AgentSchema)) }),
      },
    },
    async (request) => ok('Agents', await agents.filter(request.actor, request.body)),
  );

  app.get(
    '/api/v2/agents/:agent_id',
    {
      schema: {
        operationId: 'getAgent',
        tags,
        summary: 'Get one agent',
        description:
          'ETag names the answer ("<version>-…"): with If-None-Match holding it, 304 and no body, no agent read; ' +
          'If-Match on update takes it, or the bare version ("3").',
        params: AgentParams,
        headers: IfNoneMatchHeaders,
        'x-document': conditionalReadDocument,
        response: responses({ 200: Envelope(AgentSchema) }, [404]),
      },
    },
    async (request, reply) => {
      const tag = await app.services.agentTags.ofAgent(request.actor, request.params.agent_id);
      if (answeredNotModified(request, reply, tag)) return reply;
      return reply.send(ok('Agent', await agents.get(request.actor, request.params.agent_id)));
    },
  );

  app.put(
    '/api/v2/agents/:agent_id',
    {
      schema: {
        operationId: 'updateAgent',
        tags,
        summary: 'Update an agent; every change writes a history record',
        description: 'Fields not sent keep their value. With If-Match, the update applies only if the agent is still at that version (else 412).',
        params: AgentParams,
        headers: IfMatchHeaders,
        body: UpdateAgentBody,
        'x-document': { responseHeaders: { 200: ['ETag'] } },
        response: responses({ 200: Envelope(AgentSchema) }, [403, 404, 409, 412]),
      },
    },
    async (request, reply) => {
      const expectedVersion = parseIfMatch(request.headers['if-match']);
      const agent = await agents.update(request.actor, request.params.agent_id, request.body, expectedVersion);
      return reply.header('etag', `"${agent.version}"`).send(ok('Agent updated', agent));
    },
  );

  app.delete(
    '/api/v2/agents/:agent_id',
    {
      schema: {
        operationId: 'deleteAgent',
        tags,
        summary: 'Delete an agent',
        params: AgentParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await agents.delete(request.actor, request.params.agent_id);
      return ok('Agent deleted', { id: request.params.agent_id });
    },
  );

  for (const [action, status, operationId] of [
    ['activate', 'active', 'activateAgent'],
    ['deactivate', 'inactive', 'deactivateAgent'],
  ] as const) {
    app.post(
      `/api/v2/agents/:agent_id/${action}`,
      {
        schema: {
          operationId,
          tags,
          summary: `${action === 'activate' ? 'Activate' : 'Deactivate'} an agent (status ${status})`,
          description: 'Writes a history record when the status changes; does nothing when it already has that status.',
          params: AgentParams,
          response: responses({ 200: Envelope(AgentSchema) }, [403, 404]),
        },
      },
      async (request) => ok(`Agent ${status}`, await agents.setStatus(request.actor, request.params.agent_id, status)),
    );
  }

  app.get(
    '/api/v2/agents/:agent_id/status',
    {
      schema: {
        operationId: 'getAgentStatus',
        tags,
        summary: 'Status of an agent and of the corpora it depends on',
        params: AgentParams,
        response: responses({ 200: Envelope(AgentStatusView) }, [404]),
      },
    },
    async (request) => ok('Agent status', await agents.status(request.actor, request.params.agent_id)),
  );
};

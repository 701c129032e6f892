import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, IdParams, Page, PageQuery, named, ok, responses } from '../../http/schemas.js';
import { AgentIdBody, AgentSchema } from './agents.schemas.js';

const tags = ['agents'];
const Confirmation = Envelope(named('AgentListChange', Type.Object({ agent_id: Type.Integer() })));

export const favoritesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const favorites = app.services.favorites;
  const pageQuery = PageQuery(app.config.limits.pageSizeMax, {});
  const lists = [
    {
      list: 'recent',
      ids: { list: 'listRecentAgents', add: 'addRecentAgent', remove: 'removeRecentAgent' },
      noun: 'recently used agents',
      add: 'Mark an agent as recently used by the caller',
      remove: "Remove an agent from the caller's recent list",
    },
    {
      list: 'starred',
      ids: { list: 'listStarredAgents', add: 'starAgent', remove: 'unstarAgent' },
      noun: 'starred agents',
      add: 'Star an agent for the caller',
      remove: 'Unstar an agent',
    },
  ] as const;

  for (const { list, ids, noun, add, remove } of lists) {
    app.get(
      `/api/v2/agents/${list}`,
      {
        schema: {
          operationId: ids.list,
          tags,
          summary: `The caller's ${noun}, newest first`,
          querystring: pageQuery,
          response: responses({ 200: Envelope(Page(AgentSchema)) }),
        },
      },
      async (request) => ok(`The caller's ${noun}`, await favorites.list(request.actor, list, request.query)),
    );

    app.post(
      `/api/v2/agents/${list}`,
      { schema: { operationId: ids.add, tags, summary: add, body: AgentIdBody, response: responses({ 200: Confirmation }, [404]) } },
      async (request) => {
        await favorites.add(request.actor, list, request.body.agent_id);
        return ok(`Agent added to the ${list} list`, { agent_id: request.body.agent_id });
      },
    );

    app.delete(
      `/api/v2/agents/${list}/:agent_id`,
      { schema: { operationId: ids.remove, tags, summary: remove, params: IdParams('agent_id'), response: responses({ 200: Confirmation }, [404]) } },
      async (request) => {
        await favorites.remove(request.actor, list, request.params.agent_id);
        return ok(`Agent removed from the ${list} list`, { agent_id: request.params.agent_id });
      },
    );
  }
};

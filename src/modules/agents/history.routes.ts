import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, IdParams, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import {
  AgentHistoryResponse,
  HistoryRecordDetailSchema,
  HistoryRecordSchema,
  PromptVersionSchema,
  RestoreBody,
  SaveCheckpointBody,
} from './history.schemas.js';

const tags = ['agents'];

export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const history = app.services.history;
  const pageQuery = PageQuery(app.config.limits.pageSizeMax, {});

  app.get(
    '/api/v2/agents/:agent_id/history',
    {
      schema: {
        operationId: 'listAgentHistory',
        tags,
        summary: 'History records of an agent, newest first, paginated',
        params: IdParams('agent_id'),
        querystring: pageQuery,
        response: responses({ 200: Envelope(Page(HistoryRecordSchema)) }, [404]),
      },
    },
    async (request) => ok('Agent history', await history.list(request.actor, request.params.agent_id, request.query)),
  );

  app.post(
    '/api/v2/agents/:agent_id/history',
    {
      schema: {
        operationId: 'saveAgentCheckpoint',
        tags,
        summary: "Save the agent's current configuration as a named checkpoint",
        description: 'Appends a record; the agent and its version do not change.',
        params: IdParams('agent_id'),
        body: SaveCheckpointBody,
        response: responses({ 201: Envelope(HistoryRecordSchema) }, [403, 404]),
      },
    },
    async (request, reply) => {
      const record = await history.saveCheckpoint(request.actor, request.params.agent_id, request.body);
      return reply.code(201).send(ok('Checkpoint saved', record));
    },
  );

  app.put(
    '/api/v2/agents/:agent_id/history',
    {
      schema: {
        operationId: 'restoreAgentCheckpoint',
        tags,
        summary: 'Restore the agent to a previous checkpoint',
        description:
          'Copies the configuration of the record history_id back onto the agent and appends a record of the restore ' +
          '(carrying checkpoint_description). Answers with the record restored to. Concurrent restores are serialised.',
        params: IdParams('agent_id'),
        body: RestoreBody,
        response: responses({ 200: Envelope(AgentHistoryResponse) }, [403, 404, 409]),
      },
    },
    async (request) => {
      const { record, dropped } = await history.restore(request.actor, request.params.agent_id, request.body);
      return ok(dropped.length === 0 ? 'Agent restored' : `Agent restored without what no longer exists: ${dropped.join('; ')}`, record);
    },
  );

  app.get(
    '/api/v2/agents/:agent_id/history/:history_id',
    {
      schema: {
        operationId: 'getAgentHistoryRecord',
        tags,
        summary: 'One history record with its full configuration snapshot and its difference from the current configuration',
        params: IdParams('agent_id', 'history_id'),
        response: responses({ 200: Envelope(HistoryRecordDetailSchema) }, [404]),
      },
    },
    async (request) => ok('History record', await history.get(request.actor, request.params.agent_id, request.params.history_id)),
  );

  app.get(
    '/api/v2/agents/:agent_id/prompt-history',
    {
      schema: {
        operationId: 'listAgentPromptHistory',
        tags,
        summary: "Each distinct version of the agent's instructions, newest first",
        params: IdParams('agent_id'),
        querystring: pageQuery,
        response: responses({ 200: Envelope(Page(PromptVersionSchema)) }, [404]),
      },
    },
    async (request) => ok('Prompt history', await history.promptHistory(request.actor, request.params.agent_id, request.query)),
  );
};

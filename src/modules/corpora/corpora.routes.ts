import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IfNoneMatchHeaders, answeredNotModified, conditionalReadDocument } from '../../http/conditional-get.js';
import { Deleted, Envelope, IdParams, List, Page, named, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import {
  ConnectAgentBody,
  ConnectedAgentSchema,
  CorpusSchema,
  CreateCorpusBody,
  DefaultAgentBody,
  DefaultAgentSchema,
  GenerateStartersBody,
  GrantBody,
  PermissionEntrySchema,
  StartersBody,
  StartersSchema,
  UpdateCorpusBody,
  listCorporaQuery,
} from './corpora.schemas.js';

const tags = ['corpora'];
const CorpusParams = IdParams('corpus_id');

export const corporaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const corpora = app.services.corpora;

  app.get(
    '/api/v2/corpora',
    {
      schema: {
        operationId: 'listCorpora',
        tags,
        summary: 'List corpora visible to the caller',
        description:
          'Owners and admins see every corpus of the organization; others those they hold a permission on. ' +
          'ETag names the answer; with If-None-Match holding it, 304 and no body, no corpus read.',
        querystring: listCorporaQuery(app.config.limits.pageSizeMax),
        headers: IfNoneMatchHeaders,
        'x-document': conditionalReadDocument,
        response: responses({ 200: Envelope(Page(CorpusSchema)) }),
      },
    },
    async (request, reply) => {
      const { page, page_size, q } = request.query;
      const tag = await app.services.corpusTags.ofListing(request.actor, [page, page_size, q ?? null]);
      return app.services.servedBytes.answer(request, reply, tag, async () => ({
        body: reply.serialize(ok('Corpora', asPage(await corpora.list(request.actor, windowOf({ page, page_size }), q), { page, page_size }))) as string,
        headers: {},
      }));
    },
  );

  app.post(
    '/api/v2/corpora',
    {
      schema: {
        operationId: 'createCorpus',
        tags,
        summary: 'Create a corpus',
        description: 'The creator is granted manage on it.',
        body: CreateCorpusBody,
        response: responses({ 201: Envelope(CorpusSchema) }, [403, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Corpus created', await corpora.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/corpora/:corpus_id',
    {
      schema: {
        operationId: 'getCorpus',
        tags,
        summary: 'Get one corpus with document counts per step',
        description: 'ETag names the answer; with If-None-Match holding it, 304 and no body (the caller still authorised first), no document counted.',
        params: CorpusParams,
        headers: IfNoneMatchHeaders,
        'x-document': conditionalReadDocument,
        response: responses({ 200: Envelope(CorpusSchema) }, [404]),
      },
    },
    async (request, reply) => {
      const { tag, access } = await app.services.corpusTags.ofCorpus(request.actor, request.params.corpus_id);
      if (answeredNotModified(request, reply, tag)) return reply;
      return reply.send(ok('Corpus', await corpora.present(access)));
    },
  );

  app.put(
    '/api/v2/corpora/:corpus_id',
    {
      schema: {
        operationId: 'updateCorpus',
        tags,
        summary: 'Update a corpus',
        params: CorpusParams,
        body: UpdateCorpusBody,
        response: responses({ 200: Envelope(CorpusSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Corpus updated', await corpora.update(request.actor, request.params.corpus_id, request.body)),
  );

  app.delete(
    '/api/v2/corpora/:corpus_id',
    {
      schema: {
        operationId: 'deleteCorpus',
        tags,
        summary: 'Delete a corpus and its documents',
        description: 'Its documents, chunks, events and stored files go too.',
        params: CorpusParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await corpora.delete(request.actor, request.params.corpus_id);
      return ok('Corpus deleted', { id: request.params.corpus_id });
    },
  );

  app.get(
    '/api/v2/corpora/:corpus_id/permissions',
    {
      schema: {
        operationId: 'listCorpusPermissions',
        tags,
        summary: 'Per-user permissions on a corpus',
        description: 'Needs manage. Owners and admins of the organization manage every corpus without an entry here.',
        params: CorpusParams,
        response: responses({ 200: Envelope(List(PermissionEntrySchema)) }, [403, 404]),
      },
    },
    async (request) => ok('Permissions', { items: await corpora.listPermissions(request.actor, request.params.corpus_id) }),
  );

  app.post(
    '/api/v2/corpora/:corpus_id/permissions',
    {
      schema: {
        operationId: 'grantCorpusPermission',
        tags,
        summary: 'Grant a user read, write or manage on a corpus',
        description: 'Replaces the user’s permission if they had one.',
        params: CorpusParams,
        body: GrantBody,
        response: responses({ 200: Envelope(PermissionEntrySchema) }, [403, 404]),
      },
    },
    async (request) =>
      ok('Permission granted', await corpora.grant(request.actor, request.params.corpus_id, request.body.user_id, request.body.permission)),
  );

  app.delete(
    '/api/v2/corpora/:corpus_id/permissions/:user_id',
    {
      schema: {
        operationId: 'revokeCorpusPermission',
        tags,
        summary: "Revoke a user's permission on a corpus",
        params: IdParams('corpus_id', 'user_id'),
        response: responses({ 200: Envelope(named('CorpusPermissionRevoked', Type.Object({ user_id: Type.Integer() }))) }, [403, 404]),
      },
    },
    async (request) => {
      await corpora.revoke(request.actor, request.params.corpus_id, request.params.user_id);
      return ok('Permission revoked', { user_id: request.params.user_id });
    },
  );

  const AgentList = Envelope(List(ConnectedAgentSchema));

  app.get(
    '/api/v2/corpora/:corpus_id/agents',
    {
      schema: { operationId: 'listCorpusAgents', tags, summary: 'Agents connected to a corpus', params: CorpusParams, response: responses({ 200: AgentList }, [404]) },
    },
    async (request) => ok('Connected agents', { items: await corpora.listAgents(request.actor, request.params.corpus_id) }),
  );

  app.post(
    '/api/v2/corpora/:corpus_id/agents',
    {
      schema: {
        operationId: 'connectCorpusAgent',
        tags,
        summary: 'Connect an agent to a corpus',
        description: 'The agent then draws on the corpus. Needs manage on the corpus; connecting twice changes nothing.',
        params: CorpusParams,
        body: ConnectAgentBody,
        response: responses({ 200: AgentList }, [403, 404]),
      },
    },
    async (request) =>
      ok('Agent connected', { items: await corpora.connectAgent(request.actor, request.params.corpus_id, request.body.agent_id) }),
  );

  app.delete(
    '/api/v2/corpora/:corpus_id/agents/:agent_id',
    {
      schema: {
        operationId: 'disconnectCorpusAgent',
        tags,
        summary: 'Disconnect an agent from a corpus',
        params: IdParams('corpus_id', 'agent_id'),
        response: responses({ 200: Envelope(named('CorpusAgentChange', Type.Object({ agent_id: Type.Integer() }))) }, [403, 404]),
      },
    },
    async (request) => {
      await corpora.disconnectAgent(request.actor, request.params.corpus_id, request.params.agent_id);
      return ok('Agent disconnected', { agent_id: request.params.agent_id });
    },
  );

  app.get(
    '/api/v2/corpora/:corpus_id/default-agent',
    {
      schema: { operationId: 'getCorpusDefaultAgent', tags, summary: "The corpus's default agent", params: CorpusParams, response: responses({ 200: Envelope(DefaultAgentSchema) }, [404]) },
    },
    async (request) => ok('Default agent', await corpora.getDefaultAgent(request.actor, request.params.corpus_id)),
  );

  app.put(
    '/api/v2/corpora/:corpus_id/default-agent',
    {
      schema: {
        operationId: 'setCorpusDefaultAgent',
        tags,
        summary: "Set the corpus's default agent",
        params: CorpusParams,
        body: DefaultAgentBody,
        response: responses({ 200: Envelope(DefaultAgentSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Default agent set', await corpora.setDefaultAgent(request.actor, request.params.corpus_id, request.body.agent_id)),
  );

  app.get(
    '/api/v2/corpora/:corpus_id/conversation-starters',
    {
      schema: {
        operationId: 'getCorpusConversationStarters',
        tags,
        summary: 'Conversation starters of a corpus',
        params: CorpusParams,
        response: responses({ 200: Envelope(StartersSchema) }, [404]),
      },
    },
    async (request) => ok('Conversation starters', await corpora.getStarters(request.actor, request.params.corpus_id)),
  );

  app.put(
    '/api/v2/corpora/:corpus_id/conversation-starters',
    {
      schema: {
        operationId: 'setCorpusConversationStarters',
        tags,
        summary: 'Replace the conversation starters of a corpus',
        params: CorpusParams,
        body: StartersBody,
        response: responses({ 200: Envelope(StartersSchema) }, [403, 404]),
      },
    },
    async (request) =>
      ok('Conversation starters saved', await corpora.setStarters(request.actor, request.params.corpus_id, request.body.conversation_starters)),
  );

  app.post(
    '/api/v2/corpora/:corpus_id/conversation-starters/generate',
    {
      schema: {
        operationId: 'generateCorpusConversationStarters',
        tags,
        summary: "Propose conversation starters from the corpus's documents",
        description: 'Proposals from the topics the indexed documents cover; nothing is saved (PUT them to keep them).',
        params: CorpusParams,
        body: GenerateStartersBody,
        response: responses({ 200: Envelope(StartersSchema) }, [404]),
      },
    },
    async (request) => ok('Proposed conversation starters', await corpora.proposeStarters(request.actor, request.params.corpus_id, request.body.count ?? 5)),
  );
};

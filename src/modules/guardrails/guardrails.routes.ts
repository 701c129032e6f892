import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, Page, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import {
  CreateGuardrailBody,
  GuardrailParams,
  GuardrailSchema,
  GuardrailTestResultSchema,
  TestGuardrailBody,
  UpdateGuardrailBody,
  listGuardrailsQuery,
} from './guardrails.schemas.js';

const tags = ['guardrails'];
const collection = '/api/v2/guardrails';
const one = `${collection}/:guardrail_id`;
const FLAGS = 'Needs the feature flag guardrail, and pii-redaction for a guardrail of type pii (403 feature_disabled when off).';

export const guardrailsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const guardrails = app.services.guardrails;

  app.get(
    collection,
    {
      schema: {
        operationId: 'listGuardrails',
        tags,
        summary: 'List guardrails',
        description: "The caller's organization's guardrails, by id; ?type= keeps one type. Everyone in the organization reads them.",
        querystring: listGuardrailsQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Envelope(Page(GuardrailSchema)) }),
      },
    },
    async (request) => {
      const { page, page_size, type } = request.query;
      return ok('Guardrails', asPage(await guardrails.list(request.actor, windowOf({ page, page_size }), type), { page, page_size }));
    },
  );

  app.post(
    collection,
    {
      schema: {
        operationId: 'createGuardrail',
        tags,
        summary: 'Create a guardrail (PII redaction, blocked terms, length, topic)',
        description: `Owners and admins. config is checked for its type (400 with one detail per problem); patterns that could backtrack catastrophically are refused. ${FLAGS}`,
        body: CreateGuardrailBody,
        response: responses({ 201: Envelope(GuardrailSchema) }, [403, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Guardrail created', await guardrails.create(request.actor, request.body))),
  );

  app.get(
    one,
    {
      schema: {
        operationId: 'getGuardrail',
        tags,
        summary: 'One guardrail',
        params: GuardrailParams,
        response: responses({ 200: Envelope(GuardrailSchema) }, [404]),
      },
    },
    async (request) => ok('Guardrail', await guardrails.get(request.actor, request.params.guardrail_id)),
  );

  app.put(
    one,
    {
      schema: {
        operationId: 'updateGuardrail',
        tags,
        summary: 'Update a guardrail',
        description: `Owners and admins. Only the fields sent change; a new type needs its config. ${FLAGS}`,
        params: GuardrailParams,
        body: UpdateGuardrailBody,
        response: responses({ 200: Envelope(GuardrailSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Guardrail updated', await guardrails.update(request.actor, request.params.guardrail_id, request.body)),
  );

  app.delete(
    one,
    {
      schema: {
        operationId: 'deleteGuardrail',
        tags,
        summary: 'Delete a guardrail',
        description: 'Owners and admins, whatever the flags. Agents that name it answer without it from then on.',
        params: GuardrailParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Guardrail deleted', await guardrails.remove(request.actor, request.params.guardrail_id)),
  );

  app.post(
    `${one}/test`,
    {
      schema: {
        operationId: 'testGuardrail',
        tags,
        summary: 'Apply a guardrail to a text and show what it would do',
        description: `Everyone in the organization; nothing is stored. stage: the guardrail's first stage when absent; at a stage it does not watch it does nothing (action none). Offsets of findings are into the text sent. ${FLAGS}`,
        params: GuardrailParams,
        body: TestGuardrailBody,
        response: responses({ 200: Envelope(GuardrailTestResultSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Guardrail tested', await guardrails.test(request.actor, request.params.guardrail_id, request.body)),
  );
};

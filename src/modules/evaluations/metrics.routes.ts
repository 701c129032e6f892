// Metric definitions: /api/v2/metrics, the built-in ones (builtin: true) and the organization's own.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, Page, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { CreateMetricBody, ListMetricsQuery, MetricParams, MetricSchema, UpdateMetricBody } from './metrics.schemas.js';

const tags = ['evaluations'];
const WHO_CHANGES = 'Owners, admins and the metric’s creator; anyone else 403, and everyone 403 for a built-in metric.';

export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const metrics = app.services.metrics;

  app.get(
    '/api/v2/metrics',
    {
      schema: {
        operationId: 'listMetrics',
        tags,
        summary: 'Metric definitions',
        description: 'The built-in metrics (builtin: true, the same for every organization) first, then the organization’s own. Judge metrics show the prompt their judge is sent (judge_prompt).',
        querystring: ListMetricsQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Envelope(Page(MetricSchema)) }),
      },
    },
    async (request) => {
      const { builtin, kind, ...page } = request.query;
      return ok('Metrics', asPage(await metrics.list(request.actor, { builtin, kind }, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/metrics',
    {
      schema: {
        operationId: 'createMetric',
        tags,
        summary: 'Define a metric',
        description:
          'A kind with its parameters, a threshold, and for judge kinds a rubric and the LLM configuration that judges. A regex pattern RE2 cannot run (lookaround, backreferences) is refused (400). ' +
          'Owners, admins and members; viewers 403. Names are unique in the organization (409).',
        body: CreateMetricBody,
        response: responses({ 201: Envelope(MetricSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Metric defined', await metrics.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/metrics/:metric_id',
    { schema: { operationId: 'getMetric', tags, summary: 'One metric', params: MetricParams, response: responses({ 200: Envelope(MetricSchema) }, [404]) } },
    async (request) => ok('Metric', await metrics.get(request.actor, request.params.metric_id)),
  );

  app.put(
    '/api/v2/metrics/:metric_id',
    {
      schema: {
        operationId: 'updateMetric',
        tags,
        summary: 'Update a metric',
        description: `Only the fields sent change; evaluations already made keep the definition they were made with. ${WHO_CHANGES}`,
        params: MetricParams,
        body: UpdateMetricBody,
        response: responses({ 200: Envelope(MetricSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Metric updated', await metrics.update(request.actor, request.params.metric_id, request.body)),
  );

  app.delete(
    '/api/v2/metrics/:metric_id',
    {
      schema: {
        operationId: 'deleteMetric',
        tags,
        summary: 'Delete a metric',
        description: `Evaluations already made keep its definition and scores. ${WHO_CHANGES}`,
        params: MetricParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Metric deleted', await metrics.remove(request.actor, request.params.metric_id)),
  );
};

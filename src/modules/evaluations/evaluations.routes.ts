// Evaluations: /api/v2/evaluations — made and run in the background, read with their progress and
// summary, renamed and tagged, cancelled (POST …/cancel), deleted; their per-query and per-metric
// results, the tags in use, and comparisons (?ids=).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, Page, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import {
  ComparisonSchema,
  CompareQuery,
  CreateEvaluationBody,
  EvaluationParams,
  EvaluationSchema,
  ListEvaluationsQuery,
  ListMetricResultsQuery,
  ListQueryResultsQuery,
  MetricResultsSchema,
  QueryResultParams,
  QueryResultSchema,
  TagsInUseSchema,
  UpdateEvaluationBody,
} from './evaluations.schemas.js';

const tags = ['evaluations'];
const WHO_CHANGES = 'Owners, admins and the evaluation’s creator; anyone else 403.';

export const evaluationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const evaluations = app.services.evaluations;
  const pageSizeMax = app.config.limits.pageSizeMax;

  app.get(
    '/api/v2/evaluations',
    {
      schema: {
        operationId: 'listEvaluations',
        tags,
        summary: 'List evaluations (filter by tag, agent, dataset)',
        description: 'Newest first, each with its progress; the per-metric summary is on GET /api/v2/evaluations/{evaluation_id}.',
        querystring: ListEvaluationsQuery(pageSizeMax),
        response: responses({ 200: Envelope(Page(EvaluationSchema)) }),
      },
    },
    async (request) => {
      const { tag, agent_id, dataset_id, status, ...page } = request.query;
      return ok('Evaluations', asPage(await evaluations.list(request.actor, { tag, agentId: agent_id, datasetId: dataset_id, status }, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/evaluations',
    {
      schema: {
        operationId: 'createEvaluation',
        tags,
        summary: 'Create an evaluation (agent, dataset, metrics, tags) and start it',
        description:
          'Answers 201 at once with the evaluation queued; a durable background job asks each query of the dataset through the agent (its checkpoint history_id when given, without restoring it), ' +
          '`concurrency` at a time, and scores each answer with each metric. Owners, admins and members; viewers 403. ' +
          'The agent, checkpoint, dataset, metrics and judge configuration must be the organization’s (404); an inactive agent 409; a dataset without queries, ' +
          'a judge metric without any judge model, or semantic similarity without an embedding model 400.',
        body: CreateEvaluationBody,
        response: responses({ 201: Envelope(EvaluationSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Evaluation started', await evaluations.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/evaluations/tags',
    {
      schema: {
        operationId: 'listEvaluationTags',
        tags,
        summary: 'Tags used on evaluations',
        description: 'Every tag on the organization’s evaluations, with how many carry it, alphabetical.',
        response: responses({ 200: Envelope(TagsInUseSchema) }),
      },
    },
    async (request) => ok('Evaluation tags', { items: await evaluations.tagsInUse(request.actor) }),
  );

  app.get(
    '/api/v2/evaluations/compare',
    {
      schema: {
        operationId: 'compareEvaluations',
        tags,
        summary: 'Two or more evaluations side by side (?ids=)',
        description:
          'ids: 2 to 10 evaluation ids, comma-separated, the first the baseline. Per metric each evaluation’s summary and the change of its mean; per query (paired by dataset query, or by question) ' +
          'each evaluation’s scores, regressions (pass to fail against the baseline) first, then improvements, then other changes. The queries are paged.',
        querystring: CompareQuery(pageSizeMax),
        response: responses({ 200: Envelope(ComparisonSchema) }, [404]),
      },
    },
    async (request) => {
      const { ids, ...page } = request.query;
      return ok('Comparison', await evaluations.compare(request.actor, ids.split(',').map(Number), page));
    },
  );

  app.get(
    '/api/v2/evaluations/:evaluation_id',
    {
      schema: {
        operationId: 'getEvaluation',
        tags,
        summary: 'One evaluation with its progress and metric summary',
        description: 'summary: per metric the mean of the scores, n, the 95% confidence interval, the pass rate where it has a threshold, and the undetermined and failed results (never averaged in).',
        params: EvaluationParams,
        response: responses({ 200: Envelope(EvaluationSchema) }, [404]),
      },
    },
    async (request) => ok('Evaluation', await evaluations.get(request.actor, request.params.evaluation_id)),
  );

  app.put(
    '/api/v2/evaluations/:evaluation_id',
    {
      schema: {
        operationId: 'updateEvaluation',
        tags,
        summary: 'Update an evaluation’s name or tags',
        description: `tags replaces the tags. ${WHO_CHANGES}`,
        params: EvaluationParams,
        body: UpdateEvaluationBody,
        response: responses({ 200: Envelope(EvaluationSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Evaluation updated', await evaluations.update(request.actor, request.params.evaluation_id, request.body)),
  );

  app.delete(
    '/api/v2/evaluations/:evaluation_id',
    {
      schema: {
        operationId: 'deleteEvaluation',
        tags,
        summary: 'Delete an evaluation',
        description: `With its results; a running one is stopped. ${WHO_CHANGES}`,
        params: EvaluationParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Evaluation deleted', await evaluations.remove(request.actor, request.params.evaluation_id)),
  );

  app.post(
    '/api/v2/evaluations/:evaluation_id/cancel',
    {
      schema: {
        operationId: 'cancelEvaluation',
        tags,
        summary: 'Cancel a queued or running evaluation',
        description: `No further query starts; what was answered stays, with its scores. An evaluation that has ended answers 409. ${WHO_CHANGES}`,
        params: EvaluationParams,
        response: responses({ 200: Envelope(EvaluationSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Evaluation cancelled', await evaluations.cancel(request.actor, request.params.evaluation_id)),
  );

  app.get(
    '/api/v2/evaluations/:evaluation_id/query-results',
    {
      schema: {
        operationId: 'listEvaluationQueryResults',
        tags,
        summary: 'Per-query answers of an evaluation',
        description: 'In the dataset’s order: the question, the answer, its citations, what retrieval found, tokens, cost, latency and each metric’s score; status filters (pending, completed, blocked, failed).',
        params: EvaluationParams,
        querystring: ListQueryResultsQuery(pageSizeMax),
        response: responses({ 200: Envelope(Page(QueryResultSchema)) }, [404]),
      },
    },
    async (request) => {
      const { status, ...page } = request.query;
      return ok('Query results', asPage(await evaluations.listResults(request.actor, request.params.evaluation_id, { status }, windowOf(page)), page));
    },
  );

  app.get(
    '/api/v2/evaluations/:evaluation_id/query-results/:query_result_id',
    {
      schema: {
        operationId: 'getEvaluationQueryResult',
        tags,
        summary: 'One query result',
        params: QueryResultParams,
        response: responses({ 200: Envelope(QueryResultSchema) }, [404]),
      },
    },
    async (request) => ok('Query result', await evaluations.getResult(request.actor, request.params.evaluation_id, request.params.query_result_id)),
  );

  app.get(
    '/api/v2/evaluations/:evaluation_id/metric-results',
    {
      schema: {
        operationId: 'listEvaluationMetricResults',
        tags,
        summary: 'Per-metric results of an evaluation',
        description: 'Each score with its query, by metric then query; metric_id and status (ok, undetermined, error) filter; summary gives the metrics’ summaries.',
        params: EvaluationParams,
        querystring: ListMetricResultsQuery(pageSizeMax),
        response: responses({ 200: Envelope(MetricResultsSchema) }, [404]),
      },
    },
    async (request) => {
      const { metric_id, status, ...page } = request.query;
      const { summary, ...slice } = await evaluations.listMetricResults(request.actor, request.params.evaluation_id, { metricId: metric_id, status }, windowOf(page));
      return ok('Metric results', { ...asPage(slice, page), summary });
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { Envelope, ok, responses } from '../../http/schemas.js';
import type { Actor } from '../auth/actor.js';
import {
  AnalyticsCost,
  AnalyticsDocumentCount,
  AnalyticsIndexingMode,
  AnalyticsMostActive,
  AnalyticsQuery,
  AnalyticsQueryCount,
  AnalyticsSummary,
  AnalyticsTokens,
  AnalyticsVotes,
  MostActiveQuery,
  type AnalyticsQueryInput,
} from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';

const tags = ['analytics'];
const WHO =
  'Owners and admins see every scope; a team’s leads see the team and its agents; anyone sees their own user scope; a corpus takes `manage` on it. ' +
  'Another organization’s agent, corpus, project, team or user is a 404.';

interface SeriesRoute {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  answer: TSchema;
  read: (service: AnalyticsService, actor: Actor, query: AnalyticsQueryInput) => Promise<unknown>;
}

const SERIES: SeriesRoute[] = [
  {
    path: 'summary',
    operationId: 'getAnalyticsSummary',
    summary: 'Headline figures for a scope',
    description: 'Queries by outcome, tokens, cost, votes and documents added, per point, with mean latency and rating over the range.',
    answer: AnalyticsSummary,
    read: (service, actor, query) => service.summary(actor, query),
  },
  {
    path: 'cost',
    operationId: 'getAnalyticsCost',
    summary: 'Cost over time',
    description: 'What model calls cost (answers, judges, embeddings), from the prices copied onto each call; calls with an unknown price are counted apart.',
    answer: AnalyticsCost,
    read: (service, actor, query) => service.cost(actor, query),
  },
  {
    path: 'tokens',
    operationId: 'getAnalyticsTokens',
    summary: 'Prompt and completion tokens over time',
    description: 'Tokens of every model call: answers (their tool rounds summed), judges and embeddings.',
    answer: AnalyticsTokens,
    read: (service, actor, query) => service.tokens(actor, query),
  },
  {
    path: 'query-count',
    operationId: 'getAnalyticsQueryCount',
    summary: 'Queries over time',
    description: 'Questions asked of agents, by when they were asked, with how they ended.',
    answer: AnalyticsQueryCount,
    read: (service, actor, query) => service.queryCount(actor, query),
  },
  {
    path: 'votes',
    operationId: 'getAnalyticsVotes',
    summary: 'Up and down votes over time',
    description: 'Votes and ratings on the scope’s responses, by when they were given or last changed.',
    answer: AnalyticsVotes,
    read: (service, actor, query) => service.votes(actor, query),
  },
  {
    path: 'document-count',
    operationId: 'getAnalyticsDocumentCount',
    summary: 'Documents by step and failure over time',
    description: 'Documents added, by when they were added, split by the step they are at now and failure. An agent’s, team’s or project’s documents are those of the corpora connected to its agents.',
    answer: AnalyticsDocumentCount,
    read: (service, actor, query) => service.documentCount(actor, query),
  },
  {
    path: 'indexing-mode',
    operationId: 'getAnalyticsIndexingMode',
    summary: 'Documents and chunks by indexing mode (full text, vector, hybrid)',
    description: 'Documents indexed, by when they were indexed, and their chunks, by whether they can be found by their words, their vectors or both.',
    answer: AnalyticsIndexingMode,
    read: (service, actor, query) => service.indexingMode(actor, query),
  },
];

export const analyticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const analytics = app.services.analytics;

  for (const route of SERIES) {
    app.get(
      `/api/v2/analytics/${route.path}`,
      {
        schema: {
          operationId: route.operationId,
          tags,
          summary: route.summary,
          description: `${route.description} ${WHO}`,
          querystring: AnalyticsQuery,
          response: responses({ 200: Envelope(route.answer) }, [403, 404]),
        },
      },
      async (request) => ok(route.summary, await route.read(analytics, request.actor, request.query)),
    );
  }

  app.get(
    '/api/v2/analytics/most-active',
    {
      schema: {
        operationId: 'getAnalyticsMostActive',
        tags,
        summary: 'Most active agents, users, corpora or projects',
        description: `The scope’s agents, users, corpora or projects with the most questions over the range (then the most cost), with the scope’s questions per point. ${WHO}`,
        querystring: MostActiveQuery,
        response: responses({ 200: Envelope(AnalyticsMostActive) }, [403, 404]),
      },
    },
    async (request) => ok('Most active', await analytics.mostActive(request.actor, request.query)),
  );
};

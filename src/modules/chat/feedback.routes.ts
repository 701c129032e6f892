import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, IdParams, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { CommentSchema, RatingBody, ReviewBody, ReviewSchema, TextBody, VoteBody, WrittenFeedbackSchema } from './feedback.schemas.js';
import { AgentResponseSchema } from './responses.schemas.js';

const tags = ['chat'];
const ResponseParams = IdParams('response_id');
const seenBy = 'By whoever sees the response’s thread.';

export const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { feedback } = app.services;
  const pageQuery = PageQuery(app.config.limits.pageSizeMax, {});

  app.put(
    '/api/v2/responses/:response_id/vote',
    {
      schema: {
        operationId: 'voteResponse',
        tags,
        summary: 'Vote a response up or down (one vote per user)',
        description: `${seenBy} A second vote replaces the first; null removes it. Answers the response with its figures.`,
        params: ResponseParams,
        body: VoteBody,
        response: responses({ 200: Envelope(AgentResponseSchema) }, [404]),
      },
    },
    async (request) => ok('Vote recorded', await feedback.vote(request.actor, request.params.response_id, request.body.vote)),
  );

  app.put(
    '/api/v2/responses/:response_id/rating',
    {
      schema: {
        operationId: 'rateResponse',
        tags,
        summary: 'Rate a response from 1 to 5 (one rating per user)',
        description: `${seenBy} A second rating replaces the first; null removes it. Answers the response with its figures.`,
        params: ResponseParams,
        body: RatingBody,
        response: responses({ 200: Envelope(AgentResponseSchema) }, [404]),
      },
    },
    async (request) => ok('Rating recorded', await feedback.rate(request.actor, request.params.response_id, request.body.rating)),
  );

  app.post(
    '/api/v2/responses/:response_id/feedback',
    {
      schema: {
        operationId: 'giveResponseFeedback',
        tags,
        summary: 'Leave written feedback on a response',
        description: seenBy,
        params: ResponseParams,
        body: TextBody,
        response: responses({ 201: Envelope(WrittenFeedbackSchema) }, [404]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Feedback recorded', await feedback.addFeedback(request.actor, request.params.response_id, request.body.text))),
  );

  app.get(
    '/api/v2/responses/:response_id/comments',
    {
      schema: {
        operationId: 'listResponseComments',
        tags,
        summary: 'Comments on a response, oldest first',
        params: ResponseParams,
        querystring: pageQuery,
        response: responses({ 200: Envelope(Page(CommentSchema)) }, [404]),
      },
    },
    async (request) => ok('Comments', asPage(await feedback.listComments(request.actor, request.params.response_id, windowOf(request.query)), request.query)),
  );

  app.post(
    '/api/v2/responses/:response_id/comments',
    {
      schema: {
        operationId: 'commentResponse',
        tags,
        summary: 'Comment on a response',
        description: seenBy,
        params: ResponseParams,
        body: TextBody,
        response: responses({ 201: Envelope(CommentSchema) }, [404]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Comment added', await feedback.addComment(request.actor, request.params.response_id, request.body.text))),
  );

  app.delete(
    '/api/v2/responses/:response_id/comments/:comment_id',
    {
      schema: {
        operationId: 'deleteResponseComment',
        tags,
        summary: 'Delete a comment',
        description: 'By its author, owners and admins; anyone else who sees it is refused (403).',
        params: IdParams('response_id', 'comment_id'),
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await feedback.deleteComment(request.actor, request.params.response_id, request.params.comment_id);
      return ok('Comment deleted', { id: request.params.comment_id });
    },
  );

  app.post(
    '/api/v2/responses/:response_id/reviews',
    {
      schema: {
        operationId: 'reviewResponse',
        tags,
        summary: 'Review a response (approved, rejected, needs_changes) with a note',
        description: 'By owners, admins and the leads of the agent’s team (others 403). Reviews are kept as a trail: a new one never replaces an old one.',
        params: ResponseParams,
        body: ReviewBody,
        response: responses({ 201: Envelope(ReviewSchema) }, [403, 404]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Review recorded', await feedback.review(request.actor, request.params.response_id, request.body))),
  );

  app.get(
    '/api/v2/responses/:response_id/reviews',
    {
      schema: {
        operationId: 'listResponseReviews',
        tags,
        summary: 'Reviews of a response, as a trail, oldest first',
        params: ResponseParams,
        querystring: pageQuery,
        response: responses({ 200: Envelope(Page(ReviewSchema)) }, [404]),
      },
    },
    async (request) => ok('Reviews', asPage(await feedback.listReviews(request.actor, request.params.response_id, windowOf(request.query)), request.query)),
  );
};

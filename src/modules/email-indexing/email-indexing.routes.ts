// E-mail indexing: the legacy generation's two catalogue routes (start an authorization; the
// provider's callback, the one public route of the area) and the few v2 routes operators need to see,
// sync and unlink mailboxes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { now } from '../../clock.js';
import { AppError } from '../../errors.js';
import { Deleted, Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { AuthorizationSchema, AuthorizeBody, CallbackQuery, MailboxParams, MailboxSchema, UpdateMailboxBody } from './email-indexing.schemas.js';
import { returnLocation } from './return-path.js';

const WHO = 'Owners, admins, and whoever holds write or manage permission on the mailbox’s corpus.';
const collection = '/api/v2/email-indexing/mailboxes';
const one = `${collection}/:mailbox_id`;
const tags = ['email-indexing'];

export const emailIndexingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { emailAuthorization, mailboxes } = app.services;

  app.post(
    '/api/email-indexing/authorize/',
    {
      schema: {
        operationId: 'authorizeEmailIndexingLegacy',
        tags: ['legacy'],
        summary: 'Start e-mail indexing authorization (OAuth 2 authorization-code flow)',
        description: `Answers the provider’s consent URL (PKCE S256, a signed state good for 10 minutes) for the mailbox’s owner to open; the provider then calls GET /api/email-indexing/callback/, which links the mailbox to the corpus and queues its first sync. Only the expected mailbox (mailbox, by default the caller’s e-mail) may complete it: the account that signs in at the provider must be that one. ${WHO} A provider without a client id and secret configured is a 400.`,
        body: AuthorizeBody,
        response: responses({ 200: AuthorizationSchema }, [403, 404]),
      },
    },
    async (request) => emailAuthorization.authorize(request.actor, request.body),
  );

  app.get(
    '/api/email-indexing/callback/',
    {
      config: { public: true },
      schema: {
        operationId: 'completeEmailIndexingLegacy',
        tags: ['legacy'],
        summary: 'Finish e-mail indexing authorization',
        description:
          'Where the provider sends the browser back. Public (no credentials): it accepts nothing but the valid state of an authorization this server started, once, within 10 minutes; a missing, forged, expired or replayed state, the provider’s refusal (?error=access_denied), or an account signed in at the provider that is not the mailbox the authorization expects (the provider’s own identity of it: Graph /me, Gmail’s profile), is a 400 and writes nothing. Exchanges the code for tokens, stores the refresh token sealed, and answers the mailbox with its first sync queued. ' +
          'When the authorization named return_to, the answer is instead a 303 to that page of this server with ?linked_mailbox=<id>, or, for any refusal once the state is known to be this server’s (expired and replayed ones included), ?link_error=<the reason>; a state not signed here is still the JSON 400.',
        security: [],
        querystring: CallbackQuery,
        response: responses({ 200: MailboxSchema }, [502], { public: true }),
        'x-document': {
          responses: {
            303: {
              description: 'The authorization named return_to: back to that page with ?linked_mailbox=<id> or ?link_error=<reason>',
              headers: { Location: { description: 'A path of this server (never another origin)', schema: { type: 'string' } } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const callback = new URL(request.url, 'http://callback.invalid').searchParams;
      const returnTo = emailAuthorization.returnPathOf(request.query.state);
      const backTo = (outcome: Record<string, string>) => (returnTo === undefined ? undefined : returnLocation(returnTo, outcome));
      try {
        const mailbox = await emailAuthorization.complete(request.query, callback);
        const location = backTo({ linked_mailbox: String(mailbox.id) });
        return location === undefined ? mailbox : reply.redirect(location, 303);
      } catch (error) {
        // A refusal or the provider's failure is told on the page the person started from; a fault of
        // this server stays a 500 with its request id.
        const location = error instanceof AppError && error.status !== 500 ? backTo({ link_error: error.message.slice(0, 500) }) : undefined;
        if (location === undefined) throw error;
        return reply.redirect(location, 303);
      }
    },
  );

  app.get(
    collection,
    {
      schema: {
        operationId: 'listMailboxes',
        tags,
        summary: 'Linked mailboxes',
        description: 'The mailboxes linked to corpora the caller may write to, each with its last sync.',
        querystring: PageQuery(app.config.limits.pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(MailboxSchema)) }),
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      return ok('Mailboxes', asPage(await mailboxes.list(request.actor, windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.get(
    one,
    {
      schema: {
        operationId: 'getMailbox',
        tags,
        summary: 'One mailbox with its last sync',
        description: `Its address, folders or labels, whether it needs authorizing again, and its last sync. ${WHO}`,
        params: MailboxParams,
        response: responses({ 200: Envelope(MailboxSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Mailbox', await mailboxes.get(request.actor, request.params.mailbox_id)),
  );

  app.patch(
    one,
    {
      schema: {
        operationId: 'updateMailbox',
        tags,
        summary: 'Change a mailbox’s schedule',
        description: `schedule_minutes (5 to 10080, or null for none): the next sync is queued that long from now, and after each sync ends; while a sync is queued or runs, its end queues the next by the new schedule. ${WHO}`,
        params: MailboxParams,
        body: UpdateMailboxBody,
        response: responses({ 200: Envelope(MailboxSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Mailbox updated', await mailboxes.update(request.actor, request.params.mailbox_id, request.body, now())),
  );

  app.delete(
    one,
    {
      schema: {
        operationId: 'deleteMailbox',
        tags,
        summary: 'Unlink a mailbox',
        description: `Its refresh token and pending syncs go with it; the documents it brought in stay in the corpus. ${WHO}`,
        params: MailboxParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Mailbox removed', await mailboxes.remove(request.actor, request.params.mailbox_id)),
  );

  app.post(
    `${one}/sync`,
    {
      schema: {
        operationId: 'syncMailbox',
        tags,
        summary: 'Sync now: bring new messages in, remove those gone',
        description: `Queues a sync as a durable job and answers 202 with the mailbox (last_sync.status queued); while one is queued or running, 409. ${WHO}`,
        params: MailboxParams,
        response: responses({ 202: Envelope(MailboxSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(202).send(ok('Sync queued', await mailboxes.requestSync(request.actor, request.params.mailbox_id, now()))),
  );
};

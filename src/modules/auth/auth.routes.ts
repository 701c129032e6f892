import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, IdParams, List, ok, responses } from '../../http/schemas.js';
import { presentUser } from '../users/user.presenter.js';
import { SetPasswordBody, UserSchema } from '../users/users.schemas.js';
import { ApiKeySchema, CreateApiKeyBody, LoginBody, NewApiKeySchema, SessionSchema } from './auth.schemas.js';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Each attempt costs a memory-hard hash: a tighter allowance per address than other routes.
  const passwordAttempts = (bucket: string) => ({
    max: app.config.limits.loginsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request: { ip: string }) => `${bucket}:${request.ip}`,
  });

  app.post(
    '/api/v2/auth/login',
    {
      config: { public: true, rateLimit: passwordAttempts('login') },
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary: 'Log in with e-mail and password; returns a bearer token',
        description: 'The token expires after SESSION_TTL_HOURS. Unknown e-mails and wrong passwords answer alike.',
        security: [],
        body: LoginBody,
        response: responses({ 200: Envelope(SessionSchema) }, [401], { public: true }),
      },
    },
    async (request) => {
      const session = await app.services.auth.login(request.body.email, request.body.password);
      return ok('Logged in', { token: session.token, token_type: 'Bearer' as const, expires_on: session.expires_on, user: presentUser(session.user) });
    },
  );

  app.post(
    '/api/v2/auth/set-password',
    {
      config: { public: true, rateLimit: passwordAttempts('set-password') },
      schema: {
        operationId: 'setPassword',
        tags: ['auth'],
        summary: 'Choose a password with a one-time set-password token',
        description:
          'The token comes from inviting a user (POST /api/v2/users) or from POST /api/v2/users/{user_id}/set-password-token. ' +
          'It works once and until it expires; the user then logs in with the password. Every session of the user ends.',
        security: [],
        body: SetPasswordBody,
        response: responses({ 200: Envelope(UserSchema) }, [], { public: true }),
      },
    },
    async (request) => ok('Password set; log in with it', await app.services.users.setPasswordWithToken(request.body.token, request.body.password)),
  );

  app.post(
    '/api/v2/auth/logout',
    {
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: "Revoke the caller's bearer token",
        description: 'Ends the session whose token made the request. API keys are revoked with DELETE /api/v2/auth/api-keys/{key_id}.',
        response: responses({ 200: Envelope(Type.Null()) }),
      },
    },
    async (request) => {
      await app.services.auth.logout(request.actor);
      return ok('Logged out', null);
    },
  );

  app.get(
    '/api/v2/auth/api-keys',
    {
      schema: {
        operationId: 'listApiKeys',
        tags: ['auth'],
        summary: "List the caller's API keys (never the secret)",
        response: responses({ 200: Envelope(List(ApiKeySchema)) }),
      },
    },
    async (request) => ok('API keys', { items: await app.services.auth.listApiKeys(request.actor) }),
  );

  app.post(
    '/api/v2/auth/api-keys',
    {
      schema: {
        operationId: 'createApiKey',
        tags: ['auth'],
        summary: 'Create an API key; the secret is shown once',
        description: 'Behind the developer-portal feature flag (403 while it is off).',
        body: CreateApiKeyBody,
        response: responses({ 201: Envelope(NewApiKeySchema) }, [403]),
      },
    },
    async (request, reply) => {
      const key = await app.services.auth.issueApiKey(request.actor, request.body);
      return reply.code(201).send(ok('API key created; store it now, it is not shown again', key));
    },
  );

  app.delete(
    '/api/v2/auth/api-keys/:key_id',
    {
      schema: {
        operationId: 'revokeApiKey',
        tags: ['auth'],
        summary: 'Revoke an API key',
        params: IdParams('key_id'),
        response: responses({ 200: Envelope(ApiKeySchema) }, [404]),
      },
    },
    async (request) => ok('API key revoked', await app.services.auth.revokeApiKey(request.actor, request.params.key_id)),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { Envelope, IdParams, List, ok, responses } from '../../http/schemas.js';
import { presentUser } from '../users/user.presenter.js';
import { SetPasswordBody, UserSchema } from '../users/users.schemas.js';
import { ApiKeySchema, CookieSessionSchema, CreateApiKeyBody, LoginBody, NewApiKeySchema, SessionSchema } from './auth.schemas.js';
import { usesSessionCookie } from './request-credential.js';
import { clearedSessionCookieHeaders, cookiesAreSecure, sessionCookieHeaders } from './session-cookie.js';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Each attempt costs a memory-hard hash: a tighter allowance per address than other routes.
  const passwordAttempts = (bucket: string) => ({
    max: app.config.limits.loginsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request: { ip: string }) => `${bucket}:${request.ip}`,
  });

  const secureCookies = (request: FastifyRequest) => cookiesAreSecure(request.protocol, app.config.emailIndexing.publicBaseUrl);

  app.post(
    '/api/v2/auth/login',
    {
      config: { public: true, rateLimit: passwordAttempts('login') },
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary: 'Log in with e-mail and password; returns a bearer token, or sets the session cookie',
        description:
          'The session expires after SESSION_TTL_HOURS. Unknown e-mails and wrong passwords answer alike. ' +
          'With "session": "cookie" the answer sets two cookies (Set-Cookie), both SameSite=Strict, Path=/, Max-Age the life of the session, ' +
          'and Secure over HTTPS: ap_session (HttpOnly), the session token, which then authenticates requests that have no Authorization header; ' +
          'and ap_csrf, readable, whose value every state-changing request made with the cookie repeats in X-CSRF-Token (403 otherwise). ' +
          'The body then leaves the token out.',
        security: [],
        body: LoginBody,
        response: responses({ 200: Type.Union([Envelope(SessionSchema), Envelope(CookieSessionSchema)]) }, [401], { public: true }),
        'x-document': { responseHeaders: { 200: ['Cache-Control'] } },
      },
    },
    async (request, reply) => {
      const session = await app.services.auth.login(request.body.email, request.body.password);
      const user = presentUser(session.user);
      // A credential is in the answer (its body or its cookies): no cache may keep it.
      reply.header('cache-control', 'no-store');
      if (request.body.session !== 'cookie') {
        return ok('Logged in', { session: 'token' as const, token: session.token, token_type: 'Bearer' as const, expires_on: session.expires_on, user });
      }
      // The session's whole life: it starts now.
      const maxAgeSeconds = Math.floor((Date.parse(session.expires_on) - Date.parse(session.created_on)) / 1000);
      const csrf = app.services.auth.csrfTokenOf(session.token);
      reply.header('set-cookie', sessionCookieHeaders(session.token, csrf, { maxAgeSeconds, secure: secureCookies(request) }));
      return ok('Logged in', { session: 'cookie' as const, expires_on: session.expires_on, user });
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
        summary: "End the caller's session (bearer token or session cookie)",
        description:
          'Ends the session whose token made the request, sent as Bearer or in the ap_session cookie (then with X-CSRF-Token); ' +
          'with the cookie, the answer also clears ap_session and ap_csrf (Max-Age=0). API keys are revoked with DELETE /api/v2/auth/api-keys/{key_id}.',
        response: responses({ 200: Envelope(Type.Null()) }, [403]),
      },
    },
    async (request, reply) => {
      await app.services.auth.logout(request.actor);
      if (usesSessionCookie(request.headers)) reply.header('set-cookie', clearedSessionCookieHeaders(secureCookies(request)));
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

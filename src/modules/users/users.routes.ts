import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, IdParams, Page, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { CreateUserBody, CreatedUserSchema, MeSchema, PasswordTokenSchema, UpdateUserBody, UserSchema, listUsersQuery } from './users.schemas.js';

const tags = ['users'];
const UserParams = IdParams('user_id');

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = app.services.users;

  app.get(
    '/api/v2/users/me',
    {
      schema: {
        operationId: 'getCurrentUser',
        tags,
        summary: 'The calling user, with organization and teams',
        response: responses({ 200: Envelope(MeSchema) }),
      },
    },
    async (request) => ok('Current user', await users.me(request.actor)),
  );

  app.get(
    '/api/v2/users',
    {
      schema: {
        operationId: 'listUsers',
        tags,
        summary: "List users of the caller's organization",
        description: 'Deactivated users included unless ?is_active=true. Ordered by id.',
        querystring: listUsersQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Envelope(Page(UserSchema)) }),
      },
    },
    async (request) => {
      const { q, role, is_active, ...page } = request.query;
      return ok('Users', asPage(await users.list(request.actor, { q, role, isActive: is_active }, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/users',
    {
      schema: {
        operationId: 'createUser',
        tags,
        summary: 'Invite or create a user',
        description: 'Owners and admins. Without a password, the answer carries a one-time set_password_token (shown once).',
        body: CreateUserBody,
        response: responses({ 201: Envelope(CreatedUserSchema) }, [403, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('User created', await users.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/users/:user_id',
    {
      schema: { operationId: 'getUser', tags, summary: 'One user', params: UserParams, response: responses({ 200: Envelope(UserSchema) }, [404]) },
    },
    async (request) => ok('User', await users.get(request.actor, request.params.user_id)),
  );

  app.put(
    '/api/v2/users/:user_id',
    {
      schema: {
        operationId: 'updateUser',
        tags,
        summary: 'Update a user',
        params: UserParams,
        body: UpdateUserBody,
        response: responses({ 200: Envelope(UserSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('User updated', await users.update(request.actor, request.params.user_id, request.body)),
  );

  app.delete(
    '/api/v2/users/:user_id',
    {
      schema: {
        operationId: 'deleteUser',
        tags,
        summary: 'Deactivate a user',
        description: "The user's sessions and API keys stop working at once; the record stays, marked inactive.",
        params: UserParams,
        response: responses({ 200: Envelope(UserSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('User deactivated', await users.deactivate(request.actor, request.params.user_id)),
  );

  app.post(
    '/api/v2/users/:user_id/set-password-token',
    {
      schema: {
        operationId: 'createSetPasswordToken',
        tags,
        summary: 'Issue a new one-time set-password token for a user',
        description: 'Owners and admins, for an invitation that expired or a forgotten password. Earlier tokens of the user stop working.',
        params: UserParams,
        response: responses({ 201: Envelope(PasswordTokenSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Set-password token issued; it is not shown again', await users.issuePasswordToken(request.actor, request.params.user_id))),
  );
};

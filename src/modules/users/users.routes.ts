import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok, responses } from '../../http/schemas.js';
import { MeSchema } from './users.schemas.js';

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v2/users/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The calling user, with organization and teams',
        response: responses({ 200: Envelope(MeSchema) }),
      },
    },
    async (request) => ok('Current user', await app.services.users.me(request.actor)),
  );
};

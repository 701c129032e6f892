import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Unavailable } from '../../errors.js';
import { errorResponseDocument, named, responses } from '../../http/schemas.js';
import { API_GENERATIONS, SERVER_VERSION } from '../../version.js';
import { readChangelog } from './changelog.js';

const ChangelogEntrySchema = named(
  'ChangelogEntry',
  Type.Object({
    version: Type.String(),
    date: Type.String({ description: 'YYYY-MM-DD' }),
    changes: Type.Array(Type.String()),
  }),
  { version: '0.2.0', date: '2026-11-23', changes: ['A NUL character in any text a request carries is a 400 naming the field, on both databases.'] },
);

export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const changelog = readChangelog();
  const open = { public: true };

  app.get(
    '/health',
    {
      config: open,
      schema: {
        operationId: 'getHealth',
        tags: ['service'],
        summary: 'Liveness',
        security: [],
        // Fastify serialises only the 200; the rate limit (every route's) may answer 429.
        'x-document': { responses: { 429: errorResponseDocument(429) } },
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      config: open,
      schema: {
        operationId: 'getReadiness',
        tags: ['service'],
        summary: 'Readiness: database and workers reachable',
        security: [],
        response: responses({ 200: Type.Object({ status: Type.Literal('ready'), database: Type.String() }) }, [], { public: true }),
      },
    },
    async () => {
      try {
        await app.database.ping();
      } catch {
        throw new Unavailable('The database does not answer');
      }
      return { status: 'ready' as const, database: app.database.dialect.name };
    },
  );

  app.get(
    '/api/version',
    {
      config: open,
      schema: {
        operationId: 'getVersion',
        tags: ['service'],
        summary: 'Server and interface version',
        security: [],
        response: responses(
          {
            200: named('ServerVersion', Type.Object({
              version: Type.String({ description: 'Version of this server' }),
              generations: Type.Array(Type.String(), { description: 'Interface generations served: v2 (/api/v2/) and legacy (/api/)' }),
              database: Type.String({ description: 'sqlite or postgres' }),
            })),
          },
          [],
          { public: true },
        ),
      },
    },
    async () => ({ version: SERVER_VERSION, generations: [...API_GENERATIONS], database: app.database.dialect.name }),
  );

  app.get(
    '/api/changelog',
    {
      config: open,
      schema: {
        operationId: 'getChangelog',
        tags: ['service'],
        summary: 'Changelog of the interface, newest first',
        security: [],
        response: responses({ 200: Type.Array(ChangelogEntrySchema) }, [], { public: true }),
      },
    },
    async () => changelog,
  );
};

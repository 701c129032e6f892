// The OpenAPI 3.1 document is generated from the route schemas, so it cannot drift from the code;
// /openapi.json serves it and /docs renders it.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../version.js';

export const API_TAGS = [
  { name: 'auth', description: 'Logging in, sessions and API keys' },
  { name: 'users', description: 'Users of the organization' },
  { name: 'organizations', description: 'The organization: settings, users, logo, configurations, model deployment' },
  { name: 'teams', description: 'Teams and teammates with their roles' },
  { name: 'projects', description: 'Projects, their teams and members' },
  { name: 'agents', description: 'Agents, their history and checkpoints' },
  { name: 'corpora', description: 'Corpora, their documents, processing, retrieval and events' },
  { name: 'notifications', description: "The caller's notifications" },
  { name: 'flags', description: 'Feature flags of the organization' },
  { name: 'legacy', description: 'The legacy generation: bare JSON bodies and arrays, trailing slash' },
  { name: 'service', description: 'Health, readiness, version and this document' },
];

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent Platform API',
        version: SERVER_VERSION,
        description: 'Build agents, feed them documents, chat with them, evaluate them, and roll them back to any checkpoint.',
      },
      tags: API_TAGS,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key or a session token from /api/v2/auth/login' } } },
      security: [{ bearer: [] }],
    },
    // The reference page is listed under the path people type, without the plugin's trailing slash.
    transform: ({ schema, url }) => ({ schema, url: url === '/docs/' ? '/docs' : url }),
    // Shared schemas (added with app.addSchema) become components named by their $id.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema${i}`) },
  });

  // The reference page is a plugin's route; give it the tag and summary the catalogue expects.
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET' && route.url === '/docs') {
      route.schema = { ...route.schema, hide: false, tags: ['service'], summary: 'Interactive API reference', security: [] };
    }
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  let document: string | undefined;
  app.get(
    '/openapi.json',
    {
      config: { public: true },
      schema: { tags: ['service'], summary: 'The OpenAPI 3.1 document of every operation', security: [] },
    },
    async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(document);
    },
  );
}

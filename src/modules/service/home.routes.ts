// GET /: where a person who opens the server's address is, and where to go next. For a browser, the
// web console when it was built (its files: src/http/console-files.ts), else a page of links; JSON for
// anything else (curl, scripts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { responses } from '../../http/schemas.js';
import { SERVER_VERSION } from '../../version.js';
import { acceptsHtml } from '../../http/console-files.js';

const Home = Type.Object({
  name: Type.Literal('Agent Platform'),
  version: Type.String({ description: 'Version of this server' }),
  docs: Type.String({ description: 'Interactive API reference' }),
  openapi: Type.String({ description: 'OpenAPI 3.1 document' }),
  health: Type.String({ description: 'Liveness check' }),
  first_steps: Type.Array(Type.String(), { description: 'What to do first, as in the README' }),
});

const FIRST_STEPS = [
  'Log in: POST /api/v2/auth/login with {"email","password"} (the owner printed on the first start); the answer carries a token',
  'Send it as "Authorization: Bearer <token>" on every /api/ call',
  'Create an agent: POST /api/v2/agents with {"name","instructions"}',
  'Give it documents: POST /api/v2/corpora, then POST /api/v2/corpora/{id}/documents',
];

function homePage(version: string): string {
  const steps = FIRST_STEPS.map((step) => `<li>${escapeHtml(step)}</li>`).join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Agent Platform</title></head>
  <body>
    <h1>Agent Platform ${escapeHtml(version)}</h1>
    <p>This is the HTTP API of Agent Platform. It is running.</p>
    <ul>
      <li><a href="/docs">Interactive API reference</a></li>
      <li><a href="/openapi.json">OpenAPI 3.1 document</a></li>
      <li><a href="/health">Health</a></li>
    </ul>
    <h2>First steps</h2>
    <ol>
      ${steps}
    </ol>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const page = homePage(SERVER_VERSION);
  app.get(
    '/',
    {
      config: { public: true },
      schema: {
        operationId: 'getHome',
        tags: ['service'],
        summary: 'Where this is: version, links to the reference, first steps',
        description: 'HTML when the client accepts text/html (a browser): the web console, or a page of links where it was not built; this JSON object otherwise.',
        security: [],
        response: responses({ 200: Home }, [], { public: true }),
        'x-document': {
          responseContent: {
            200: {
              'application/json': { schema: Home },
              'text/html': { schema: { type: 'string', description: 'The web console, or a page of links where it was not built' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      // The answer depends on Accept: caches must keep the two apart.
      reply.header('vary', 'Accept');
      if (acceptsHtml(request)) {
        if (app.consoleFiles !== undefined) return app.consoleFiles.sendPage(reply);
        return reply.type('text/html; charset=utf-8').send(page as never);
      }
      return {
        name: 'Agent Platform' as const,
        version: SERVER_VERSION,
        docs: '/docs',
        openapi: '/openapi.json',
        health: '/health',
        first_steps: FIRST_STEPS,
      };
    },
  );
};

// /mcp: the platform as a Model Context Protocol server over Streamable HTTP (API.md §9, docs/mcp.md),
// with the official SDK's server and its web-standard transport, whose Response Fastify sends (so the
// request id, security headers, request log and metrics are those of every route).
//
// Stateless: each POST gets a server and a transport of its own, built for its caller, and nothing
// is kept between requests; the protocol allows it (no session id is issued), every process of a
// deployment can answer any request, and what MCP offers that needs a session (server-initiated
// requests, resumable streams, subscriptions) is nothing these tools and resources use. So GET (a
// stream of the server's own messages) and DELETE (the end of a session) answer 405, as the SDK's
// stateless servers do. An answer is streamed as Server-Sent Events (the SDK's default: clients
// accept both JSON and event streams), which carries progress notifications while an agent answers.
//
// Before anything is read: the Host and Origin must name this server (DNS rebinding, mcp-hosts.ts),
// then the caller is resolved from the Authorization header alone. The session cookie does not
// authenticate here: a browser sends it wherever a page posts, which would make /mcp a CSRF target.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Forbidden, Unauthenticated } from '../../errors.js';
import { jsonBodyParser } from '../../http/json-body.js';
import { readBearer } from '../auth/bearer.js';
import { usesSessionCookie } from '../auth/request-credential.js';
import { OpenAiModels } from '../openai/openai-models.js';
import { clientGone } from '../runtime/ask-replies.js';
import { McpDirectory } from './mcp-agents.js';
import { McpHosts } from './mcp-hosts.js';

export const MCP_PATH = '/mcp';

/** The SDK's server for one request, loaded at the first request (a start does not load the SDK). */
let requestServerModule: Promise<typeof import('./mcp-request-server.js')> | undefined;
const loadRequestServer = () => (requestServerModule ??= import('./mcp-request-server.js'));

/** The request as the SDK's web-standard transport reads it; its body is the one Fastify parsed, handed over beside it. */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers });
}

/** A body that is not JSON: kept as such by this scope's parser, answered as JSON-RPC's parse error. */
class MalformedJson {
  constructor(readonly reason: string) {}
}

/** What the SDK answers where a stateless server has no session: 405, in JSON-RPC's error shape. */
function methodNotAllowed(reply: FastifyReply) {
  return reply
    .code(405)
    .header('allow', 'POST')
    .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless; send requests with POST' }, id: null });
}

export const mcpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, services } = app;
  const hosts = new McpHosts(config.emailIndexing.publicBaseUrl, config.mcpAllowedHosts, config.corsOrigins);
  const directory = new McpDirectory(new OpenAiModels(services.store), services.agents, services.corpora);
  const toolDeps = { asks: services.asks, search: services.search, directory, log: app.log };
  const resourceDeps = { agents: services.agents, corpora: services.corpora, directory, log: app.log };

  const guard: onRequestAsyncHookHandler = async (request) => {
    if (!hosts.allowsHost(request.host)) {
      throw new Forbidden(`Host ${request.host ?? '(none)'} is not a name this server answers MCP requests for (MCP_ALLOWED_HOSTS)`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !hosts.allowsOrigin(origin)) throw new Forbidden(`Origin ${origin} may not call ${MCP_PATH}`);
    const authorization = request.headers.authorization;
    if (authorization === undefined) {
      throw new Unauthenticated(
        usesSessionCookie(request.headers)
          ? `The session cookie does not authenticate ${MCP_PATH}: send Authorization: Bearer <API key or token>`
          : 'Authentication required: send Authorization: Bearer <API key or token>',
      );
    }
    request.actor = await services.auth.authenticateRequest({ via: 'authorization', bearer: readBearer(authorization) });
  };
  // Malformed JSON is JSON-RPC's parse error (-32700), as MCP clients expect, not the API's 400 envelope.
  const parseJson = jsonBodyParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text: string, done) =>
    parseJson(request, text, (error, body) => (error ? done(null, new MalformedJson(error.message)) : done(null, body))),
  );

  // Authenticated by the guard, not by the app's hook (which would take the session cookie).
  const options = { config: { public: true }, schema: { hide: true }, onRequest: guard };

  app.post(MCP_PATH, options, async (request, reply) => {
    if (request.body instanceof MalformedJson) {
      return reply.code(400).send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${request.body.reason}` }, id: null });
    }
    const gone = clientGone(reply);
    const { openMcpRequestServer } = await loadRequestServer();
    const { server, transport } = await openMcpRequestServer(toolDeps, resourceDeps, request.actor, gone);
    reply.raw.once('close', () => {
      // Answers in flight were cancelled by clientGone; nothing waits for the closing.
      void server.close().catch(() => undefined);
    });
    return reply.send(await transport.handleRequest(webRequestOf(request), { parsedBody: request.body }));
  });
  app.get(MCP_PATH, options, async (_request, reply) => methodNotAllowed(reply));
  app.delete(MCP_PATH, options, async (_request, reply) => methodNotAllowed(reply));
};

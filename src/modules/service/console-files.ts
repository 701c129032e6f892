// The web console, built into dist/console/ by `npm run build` (scripts/build-console.mjs) and served
// by this process (API.md §9): its files, with the brotli or gzip copy the build wrote when the client
// takes it, and its index.html for the console's own pages, so that a deep link (/agents/12/chat)
// survives a reload. Only the files found at start are served: a path is looked up among them, never
// joined to the folder, so no URL reaches a file outside it. A build made while running needs a restart.
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths of the API and its tools: never the console, whatever Accept says. */
const RESERVED_PATH = /^\/(?:api|mcp|\.well-known|health|ready|metrics)(?:\/|$)|^\/docs|^\/openapi\.json$/;
/** A `..` segment, however the slashes were written: never a file of the console nor one of its pages. */
const CLIMBS = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/** Where Vite puts the files a page loads: one missing there is a 404, never the page. */
const ASSETS_PATH = /^\/assets(?:\/|$)/;

/** Content-hashed by Vite: a new build gives them new names, so a browser may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Names the hashed files of the build: asked again (a 304 when unchanged) on every visit. */
const PAGE = 'no-cache';
/** The build's other files (favicon…), under fixed names: kept a short while. */
const SHORT = 'public, max-age=3600';

/** A request from a browser opening a page: its Accept names text/html (fetch() sends *\/*). */
export function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

function isReservedPath(path: string): boolean {
  return RESERVED_PATH.test(path);
}

/** The last segment holds a dot: a file's name, which a page of the console never has. */
function namesAFile(path: string): boolean {
  return (path.split('/').pop() ?? '').includes('.');
}

/** Sends the console's index.html; the reply's answer depends on Accept (and Accept-Encoding). */
export type SendConsolePage = (reply: FastifyReply) => FastifyReply;

/**
 * Serves the console of `dir` in `app`'s context when it was built (holds an index.html), and returns
 * how to send its page; undefined when there is no console to serve.
 */
export async function serveConsoleFiles(app: FastifyInstance, dir: string): Promise<SendConsolePage | undefined> {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = await listBuiltFiles(dir);
  // Only reply.sendFile: the routes are ours (public, out of the OpenAPI document, our cache rules).
  await app.register(fastifyStatic, { root: dir, serve: false, preCompressed: true, cacheControl: false, index: false });

  const sendFile = (reply: FastifyReply, file: string, cacheControl: string) =>
    addVary(reply, 'Accept-Encoding').header('cache-control', cacheControl).sendFile(file);
  const sendPage: SendConsolePage = (reply) => sendFile(addVary(reply, 'Accept'), 'index.html', PAGE);

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    config: { public: true },
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = decodedPath(request.url);
      if (path === undefined || isReservedPath(path) || CLIMBS.test(path)) return reply.callNotFound();
      const file = path.slice(1);
      if (files.has(file)) return sendFile(reply, file, file === 'index.html' ? PAGE : file.startsWith('assets/') ? IMMUTABLE : SHORT);
      // Whether the page or a 404 comes depends on Accept: caches must keep the two apart.
      addVary(reply, 'Accept');
      if (namesAFile(path) || ASSETS_PATH.test(path) || !acceptsHtml(request)) return reply.callNotFound();
      return sendPage(reply);
    },
  });
  return sendPage;
}

/**
 * The build's files, as paths relative to `dir` with forward slashes: not the compressed copies (sent
 * in place of their file), nor what is hidden (the build stamp, a .vite/ folder).
 */
async function listBuiltFiles(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
  return new Set(files.filter((file) => !/\.(br|gz)$/.test(file) && !file.split('/').some((segment) => segment.startsWith('.'))));
}

/** The URL's path, percent-decoded; undefined when it does not decode. */
function decodedPath(url: string): string | undefined {
  const query = url.indexOf('?');
  try {
    return decodeURIComponent(query === -1 ? url : url.slice(0, query));
  } catch {
    return undefined;
  }
}

/** Adds to Vary what the answer depends on, keeping what others (CORS: Origin) put there. */
function addVary(reply: FastifyReply, name: string): FastifyReply {
  const present = String(reply.getHeader('vary') ?? '');
  const names = present.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return names.some((item) => item.toLowerCase() === name.toLowerCase()) ? reply : reply.header('vary', [...names, name].join(', '));
}

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

/** The console as this process serves it. */
export interface ConsoleFiles {
  /** Sends the console's index.html; the reply's answer depends on Accept (and Accept-Encoding). */
  sendPage(reply: FastifyReply): FastifyReply;
  /**
   * Answers a GET or HEAD that no route matched with a file of the build, or with the page for a
   * browser opening one of the console's addresses; false when it is none of those (then a 404).
   */
  answerUnmatched(request: FastifyRequest, reply: FastifyReply): boolean;
}

/**
 * The console of `dir` when it was built (holds an index.html); undefined when there is none to serve.
 * Its files are answered where no route matched (the not-found handler), not by a catch-all route:
 * the router's own answers (a 414 for a path parameter over its limit) and the API's 404s stay as they
 * are, and no authentication or route of the API is in the way.
 */
export async function installConsoleFiles(app: FastifyInstance, dir: string): Promise<ConsoleFiles | undefined> {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = await listBuiltFiles(dir);
  // Only reply.sendFile, in this context (the app's root, where the not-found handler runs).
  await app.register(fastifyStatic, { root: dir, serve: false, preCompressed: true, cacheControl: false, index: false });

  const sendFile = (reply: FastifyReply, file: string, cacheControl: string) =>
    addVary(reply, 'Accept-Encoding').header('cache-control', cacheControl).sendFile(file);
  const sendPage = (reply: FastifyReply) => sendFile(addVary(reply, 'Accept'), 'index.html', PAGE);

  return {
    sendPage,
    answerUnmatched(request, reply) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const path = decodedPath(request.url);
      if (path === undefined || isReservedPath(path) || CLIMBS.test(path)) return false;
      const file = path.slice(1);
      if (files.has(file)) {
        void sendFile(reply, file, file === 'index.html' ? PAGE : file.startsWith('assets/') ? IMMUTABLE : SHORT);
        return true;
      }
      // Whether the page or a 404 comes depends on Accept: caches must keep the two apart.
      addVary(reply, 'Accept');
      if (namesAFile(path) || ASSETS_PATH.test(path) || !acceptsHtml(request)) return false;
      void sendPage(reply);
      return true;
    },
  };
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

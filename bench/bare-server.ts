// The baseline: Fastify with one GET route answering a fixed JSON body, and nothing else (no
// plugins, no hooks, no authentication, no database, logger off). Run as a child process by
// lib/bare-server-process.ts; what the real server adds on top is the difference in the figures.
// With BARE_MODEL_URL it also forwards asks to a model (bare-forward.ts): the floor of an answer.
//
// Settings (environment): BARE_PORT, BARE_ROUTE (a Fastify path, e.g. /api/v2/agents/:agent_id),
// BARE_BODY_FILE (the JSON body to answer); BARE_MODEL_URL and BARE_MODEL (the OpenAI-compatible base
// URL and model name asks are forwarded to).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { registerAskForwarding } from './bare-forward.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bare-server needs ${name}`);
  return value;
}

const port = Number(required('BARE_PORT'));
const route = required('BARE_ROUTE');
// Parsed once and returned as an object, as a handler normally does, so that the baseline pays for
// serialising the body as the real server does.
const body: unknown = JSON.parse(readFileSync(required('BARE_BODY_FILE'), 'utf8'));

const app = Fastify({ logger: false });
app.get(route, async () => body);
if (process.env.BARE_MODEL_URL) registerAskForwarding(app, { baseUrl: process.env.BARE_MODEL_URL, model: required('BARE_MODEL') });

await app.listen({ port, host: '127.0.0.1' });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

// The error handler on a bare Fastify instance: each kind of failure becomes the right envelope,
// and a fault's internals never reach the client.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { postgresDialect } from '../src/db/dialects/postgres.js';
import { sqliteDialect } from '../src/db/dialects/sqlite.js';
import { Conflict, NotFound } from '../src/errors.js';
import { installErrorHandler } from '../src/http/error-handler.js';

async function appThrowing(error: unknown, dialect = sqliteDialect) {
  const app = Fastify({ logger: false });
  installErrorHandler(app, dialect);
  app.get('/fail', async () => {
    throw error;
  });
  await app.ready();
  const reply = await app.inject({ method: 'GET', url: '/fail' });
  await app.close();
  return { status: reply.statusCode, body: reply.json(), headers: reply.headers };
}

describe('error handler', () => {
  it('keeps a typed error’s status, code and message', async () => {
    expect(await appThrowing(new NotFound('agent', 42))).toMatchObject({
      status: 404,
      body: { success: false, message: 'Agent 42 not found', error: { code: 'not_found', details: [] } },
    });
    expect((await appThrowing(new Conflict('taken'))).body.error.code).toBe('conflict');
  });

  it('turns an unexpected fault into a 500 with a request id and nothing of the fault', async () => {
    const fault = new TypeError('Cannot read properties of undefined (reading "secret_column") at /srv/app/src/x.ts:12');
    const { status, body } = await appThrowing(fault);
    expect(status).toBe(500);
    expect(body).toEqual({ success: false, message: 'Internal server error', error: { code: 'internal', request_id: expect.any(String), details: [] } });
    expect(body.error.request_id.length).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toContain('secret_column');
  });

  it('answers 503 with Retry-After when the database cannot be reached', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const pg = await appThrowing(refused, postgresDialect);
    expect(pg.status).toBe(503);
    expect(pg.body.error.code).toBe('unavailable');
    expect(pg.headers['retry-after']).toBe('5');
    expect(JSON.stringify(pg.body)).not.toContain('5432');
    const busy = await appThrowing(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    expect(busy.status).toBe(503);
    const full = await appThrowing(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }));
    expect(full.status).toBe(503);
  });

  it('does not take a constraint error for unavailability', async () => {
    const unique = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect((await appThrowing(unique)).status).toBe(500);
    expect((await appThrowing(Object.assign(new Error('duplicate key'), { code: '23505' }), postgresDialect)).status).toBe(500);
  });
});

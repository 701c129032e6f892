// The check every test app runs with (RESPONSE_SCHEMA_CHECK, src/http/response-schema-check.ts): an
// answer whose body, status or media type its route does not document fails as a 500, whether the
// body went through the serialiser, was written beforehand (the listings' fast paths) or is streamed.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { installResponseSchemaCheck } from '../src/http/response-schema-check.js';
import { testConfig } from './support/app.js';
import { createScratchDatabase } from './support/databases.js';

const Item = Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false });

describe('the response schema check', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    installResponseSchemaCheck(app);
    const route = (url: string, send: () => unknown, extra: object = {}) =>
      app.get(url, { schema: { response: { 200: Item }, ...extra } }, async (_request, reply) => reply.type('application/json').send(send()));
    route('/object', () => ({ id: 1, name: 'one' }));
    // The serialiser would write "" for the null: the object is checked before it is.
    route('/object-with-null', () => ({ id: 1, name: null }));
    route('/text', () => '{"id":1,"name":"one"}');
    route('/text-with-extra-field', () => '{"id":1,"name":"one","secret":"x"}');
    route('/stream', () => Readable.from(['{"id":1,', '"name":"one"}']));
    route('/stream-wrong', () => Readable.from(['{"id":"1",', '"name":"one"}']));
    app.get('/undocumented-status', { schema: { response: { 200: Item } } as FastifySchema }, async (_request, reply) => reply.code(202).send({ id: 1, name: 'one' }));
    app.get('/csv', { schema: { response: { 200: Item }, 'x-document': { responseContent: { 200: { 'text/csv': { schema: Type.String() } } } } } }, async (_request, reply) =>
      reply.type('text/csv').send('id,name\r\n1,one\r\n'),
    );
    app.get('/html', { schema: { response: { 200: Item } } }, async (_request, reply) => reply.type('text/html').send('<p>one</p>'));
    await app.ready();
  });
  afterAll(() => app.close());

  it('lets answers that match their schema through unchanged', async () => {
    for (const url of ['/object', '/text', '/stream', '/csv']) {
      const reply = await app.inject({ method: 'GET', url });
      expect(reply.statusCode, url).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/stream' })).body).toBe('{"id":1,"name":"one"}');
  });

  it('fails loudly on a body, a status or a media type the route does not document', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const url of ['/object-with-null', '/text-with-extra-field', '/undocumented-status', '/html']) {
        expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(500);
      }
      // A stream has sent its status already: it is broken off instead.
      await expect(app.inject({ method: 'GET', url: '/stream-wrong' }).then((reply) => JSON.parse(reply.body))).rejects.toThrow();
      const written = stderr.mock.calls.map(([text]) => String(text)).join('');
      expect(written).toContain('GET /object-with-null answered 200 in a way its documented responses do not allow');
      expect(written).toContain('/name must be string');
      expect(written).toContain('must NOT have additional properties');
      expect(written).toContain('the status 202 is not among');
      expect(written).toContain('sent text/html');
      expect(written).toContain('/id must be integer');
    } finally {
      stderr.mockRestore();
    }
  });

  it('is on in every app the tests build', async () => {
    const scratch = await createScratchDatabase('sqlite');
    try {
      expect(testConfig(scratch).responseSchemaCheck).toBe(true);
    } finally {
      await scratch.drop();
    }
  });
});

// Answers the framework makes by itself (a parameter over the router's limit, a URL that does not
// decode, a wrong content type), the Bearer scheme in any case, the legacy listing's window, and the
// URL as the log shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/http/log-redaction.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';
import { createCorpus } from './support/corpora.js';

const ENVELOPE = { success: false, message: expect.any(String), error: { code: expect.any(String), request_id: expect.any(String), details: expect.any(Array) } };

describe('answers the framework makes', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    owner = await createUser(t.app, { role: 'owner' });
  });
  afterAll(() => t.close());

  it('a path parameter over the router limit is a 414 in the envelope', async () => {
    const reply = await owner.api.get(`/api/v2/agents/${'9'.repeat(300)}`);
    expect(reply.status).toBe(414);
    expect(reply.body).toEqual({ ...ENVELOPE, error: { ...ENVELOPE.error, code: 'uri_too_long' } });
    expect(reply.headers['x-request-id']).toBe(reply.body.error.request_id);
  });

  it('a URL whose percent-encoding does not decode is a 400 in the envelope', async () => {
    const reply = await owner.api.get('/api/v2/feature-flags/%E0%A4%A');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ success: false, error: { code: 'bad_request' } });
  });

  it('a wrong content type and unknown routes are in the envelope', async () => {
    const wrongType = await request(t.app, 'POST', '/api/v2/agents', undefined, { token: owner.token, raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject(ENVELOPE);
    const unknown = await owner.api.get('/api/v2/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(ENVELOPE);
  });

  it('takes the Bearer scheme in any case, and the token only as sent', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await request(t.app, 'GET', '/api/v2/agents', undefined, { headers: { authorization: `${scheme} ${owner.token}` } })).status).toBe(200);
    }
    const flipped = owner.token.replace(/[a-z]/, (letter) => letter.toUpperCase());
    expect((await request(t.app, 'GET', '/api/v2/agents', undefined, { headers: { authorization: `Bearer ${flipped}` } })).status).toBe(401);
  });

  it('the legacy corpus listing caps limit at the page size, as every legacy list does', async () => {
    const corpus = await createCorpus(owner);
    expect((await owner.api.get(`/api/corpus/${corpus.id}/document/?limit=1000000`)).status).toBe(400);
    expect((await owner.api.get(`/api/corpus/${corpus.id}/document/?limit=100`)).status).toBe(200);
    expect((await owner.api.get('/api/users/?limit=1000000')).status).toBe(400);
  });
});

describe('redactUrl', () => {
  it('hides the values of credential-looking query parameters and keeps the rest', () => {
    expect(redactUrl('/api/v2/agents?page=2&api_key=sk-123&token=abc&q=hello')).toBe('/api/v2/agents?page=2&api_key=[redacted]&token=[redacted]&q=hello');
    expect(redactUrl('/x?Password=hunter2&client_secret=s&X-Amz-Signature=f&sort=name')).toBe('/x?Password=[redacted]&client_secret=[redacted]&X-Amz-Signature=[redacted]&sort=name');
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/api/v2/agents/1')).toBe('/api/v2/agents/1');
  });
});

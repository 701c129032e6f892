// Prometheus metrics through the real app: request series by route pattern, the job queue and the
// document pipeline counted from their tables, the database, and the optional token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, OWNER_PASSWORD, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { client, request } from './support/http.js';

/** The value of one series in a Prometheus text answer, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(databaseKinds)('metrics (%s)', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    // No worker: the uploaded document stays queued, and so does its job.
    t = await startTestApp(kind, { WORKER_IN_PROCESS: 'false' });
    token = (await request(t.app, 'POST', '/api/v2/auth/login', { email: OWNER_EMAIL, password: OWNER_PASSWORD })).body.data.token;
    const api = client(t.app, token);
    const corpus = (await api.post('/api/v2/corpora', { name: 'Metrics' })).body.data;
    const upload = await api.post(`/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'text', name: 'a.md', text: '# A\n\nSome text.' });
    expect(upload.status).toBeLessThan(300);
    await api.get(`/api/v2/agents/123456`);
  });
  afterAll(() => t.close());

  it('serves the Prometheus text format without a credential when METRICS_TOKEN is unset', async () => {
    const reply = await request(t.app, 'GET', '/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(reply.text).toContain('process_cpu_user_seconds_total');
  });

  it('labels requests with the route pattern, never the URL', async () => {
    const text = (await request(t.app, 'GET', '/metrics')).text;
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v2/agents/:agent_id",status_code="404"}')).toBe(1);
    expect(text).not.toContain('/api/v2/agents/123456');
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/v2/agents/:agent_id",status_code="404"}')).toBe(1);
    await request(t.app, 'GET', '/no/such/page/42');
    const after = (await request(t.app, 'GET', '/metrics')).text;
    expect(sample(after, 'http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(after).not.toContain('/no/such/page');
  });

  it('counts the job queue and the documents of the whole deployment from their tables', async () => {
    const text = (await request(t.app, 'GET', '/metrics')).text;
    expect(sample(text, 'agent_platform_jobs{name="document.process",status="queued"}')).toBe(1);
    expect(sample(text, 'agent_platform_jobs_oldest_age_seconds{name="document.process",status="queued"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'agent_platform_documents{step="queued"}')).toBe(1);
    expect(sample(text, 'agent_platform_documents_failed')).toBe(0);
  });

  it("reports the event loop's delay: a histogram of this server's, and prom-client's percentiles", async () => {
    const text = (await request(t.app, 'GET', '/metrics')).text;
    expect(text).toContain('# TYPE agent_platform_event_loop_delay_seconds histogram');
    expect(sample(text, 'agent_platform_event_loop_delay_seconds_bucket{le="+Inf"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'agent_platform_event_loop_delay_seconds_count')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_max_seconds gauge');
  });

  it('reports the database, and the pool on PostgreSQL', async () => {
    const text = (await request(t.app, 'GET', '/metrics')).text;
    expect(sample(text, `agent_platform_database_up{dialect="${kind}"}`)).toBe(1);
    if (kind === 'postgres') {
      expect(sample(text, 'agent_platform_database_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      // Read while the scrape's own queries run, so only their presence is certain.
      expect(sample(text, 'agent_platform_database_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'agent_platform_database_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    } else {
      expect(text).not.toContain('agent_platform_database_pool_connections');
    }
  });
});

describe('metrics settings', () => {
  it('require the token when METRICS_TOKEN is set', async () => {
    const t = await startTestApp('sqlite', { METRICS_TOKEN: 'a-scrape-token' });
    try {
      expect((await request(t.app, 'GET', '/metrics')).status).toBe(401);
      expect((await request(t.app, 'GET', '/metrics', undefined, { token: 'another-token' })).status).toBe(401);
      const reply = await request(t.app, 'GET', '/metrics', undefined, { token: 'a-scrape-token' });
      expect(reply.status).toBe(200);
      expect(reply.text).toContain('agent_platform_database_up');
    } finally {
      await t.close();
    }
  });

  it('are absent when METRICS_ENABLED=false', async () => {
    const t = await startTestApp('sqlite', { METRICS_ENABLED: 'false' });
    try {
      expect((await request(t.app, 'GET', '/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

// Prometheus metrics at GET /metrics: requests by route pattern and status, the database, the job
// queue and the document pipeline. Queue and pipeline figures are counted from their tables when
// Prometheus scrapes, so every API process reports the same truth, whichever process did the work.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ObservabilitySettings } from '../config.js';
import type { Database } from '../db/database.js';
import { Unauthenticated } from '../errors.js';
import { responses } from '../http/schemas.js';
import type { Repositories } from '../repositories.js';
import { collectProcessMetrics, processMetrics } from './registry.js';

const PREFIX = 'agent_platform_';

/** The counting queries metrics need; the repositories outside any transaction. */
export type MetricsSources = Pick<Repositories, 'jobs' | 'documents'>;

/** The metrics one app collects: its requests, and what its database holds at scrape time. */
export function createAppMetrics(database: Database, repos: MetricsSources, now: () => number = Date.now): Registry {
  const registry = new Registry();
  new Gauge({
    name: `${PREFIX}database_up`,
    help: 'Whether the database answered a query at the last scrape (1) or not (0)',
    labelNames: ['dialect'],
    registers: [registry],
    async collect() {
      let up = 1;
      try {
        await database.ping();
      } catch {
        up = 0;
      }
      this.set({ dialect: database.dialect.name }, up);
    },
  });
  if (database.poolStats !== undefined) {
    const poolStats = database.poolStats.bind(database);
    new Gauge({
      name: `${PREFIX}database_pool_connections`,
      help: 'PostgreSQL connections of this process: total open, idle, and callers waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }
  // Gauges that share a query share it within a scrape (prom-client collects every metric at once).
  const countJobs = sharedWithinScrape(() => repos.jobs.countOpenJobs());
  const countDocuments = sharedWithinScrape(() => repos.documents.countByStepAcrossOrganizations());
  new Gauge({
    name: `${PREFIX}jobs`,
    help: 'Jobs of the deployment waiting (queued), being worked on (running) or failed for good, by job name',
    labelNames: ['name', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await countJobs()) this.set({ name: row.name, status: row.status }, row.jobs);
    },
  });
  new Gauge({
    name: `${PREFIX}jobs_oldest_age_seconds`,
    help: 'Age of the oldest job of each name and status (queued: how long the queue has been waiting)',
    labelNames: ['name', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await countJobs()) {
        this.set({ name: row.name, status: row.status }, Math.max(0, (now() - Date.parse(row.oldestCreatedOn)) / 1000));
      }
    },
  });
  new Gauge({
    name: `${PREFIX}documents`,
    help: 'Documents of the deployment (all organizations) by pipeline step; failed ones are counted in their step and in agent_platform_documents_failed',
    labelNames: ['step'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await countDocuments()) this.set({ step: row.step }, row.documents);
    },
  });
  new Gauge({
    name: `${PREFIX}documents_failed`,
    help: 'Documents of the deployment whose processing failed for good',
    registers: [registry],
    async collect() {
      this.set((await countDocuments()).reduce((sum, row) => sum + row.failed, 0));
    },
  });
  return registry;
}

/** One call of `query` for the callers that ask while it runs; the next scrape asks again. */
function sharedWithinScrape<T>(query: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= query().finally(() => (running = undefined)));
}

/** Request metrics, the /metrics route, and its token. */
export function installMetrics(app: FastifyInstance, settings: ObservabilitySettings, sources: MetricsSources): void {
  if (!settings.metricsEnabled) return;
  collectProcessMetrics();
  const appMetrics = createAppMetrics(app.database, sources);
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [appMetrics] });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [appMetrics],
  });
  // Each series' pair of children, found by one string: prom-client would hash the labels object on
  // every request. Finite: methods × route patterns × statuses.
  const series = new Map<string, { requests: { inc(): void }; durations: { observe(value: number): void } }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (/api/v2/agents/:agent_id), never the URL: one series per route, not per id.
    // Requests no route matched share one label, so that probing random URLs adds no series.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let children = series.get(key);
    if (children === undefined) {
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      children = { requests: requests.labels(labels), durations: durations.labels(labels) };
      series.set(key, children);
    }
    children.requests.inc();
    children.durations.observe(reply.elapsedTime / 1000);
    done();
  });

  const expected = settings.metricsToken === undefined ? undefined : digest(`Bearer ${settings.metricsToken}`);
  app.get(
    '/metrics',
    {
      config: { public: true },
      schema: {
        operationId: 'getMetrics',
        tags: ['service'],
        summary: 'Prometheus metrics',
        description:
          'In the Prometheus text format. Requires `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set (401 otherwise); open when it is not. Absent when METRICS_ENABLED=false.',
        security: [],
        response: responses({ 200: Type.String({ description: 'Prometheus text exposition format' }) }, [401], { public: true }),
        'x-document': { responseContent: { 200: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      if (expected !== undefined && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
        throw new Unauthenticated('The metrics require Authorization: Bearer <METRICS_TOKEN>');
      }
      const registry = Registry.merge([processMetrics, appMetrics]);
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
}

/** Compared as digests, so that the comparison takes the same time whatever the length sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

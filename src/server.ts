// Starts the HTTP server on the configured address and closes it gracefully on SIGTERM or SIGINT:
// stop accepting, finish the requests in flight (within SHUTDOWN_GRACE_MS), close the database.
import { buildApp, type App } from './app.js';
import type { Config } from './config.js';
import type { FirstOwnerPassword } from './modules/organizations/first-owner-password.js';
import { preparePiiLexicon } from './guardrails/index.js';
import { describeWork, workInFlight } from './observability/work-in-flight.js';
import { releaseYoungGeneration } from './young-generation.js';

export async function startServer(config: Config, ownerPassword?: FirstOwnerPassword): Promise<App> {
  const app = await buildApp(config, ownerPassword);
  if (app.firstStart) announceFirstStart(app.firstStart.email, app.firstStart.generatedPassword);
  // Before listening, so that no request waits while it is built (the PII guardrail's word lists).
  preparePiiLexicon();
  await app.listen({ port: config.port, host: config.host });
  // Started: from here the young generation grows with the load, as in any process that just started.
  releaseYoungGeneration();
  app.log.info({ database: app.database.description }, 'Agent Platform is ready');
  closeOnSignals(app);
  // Not waited for: requests are served meanwhile with SQLite's own checkpoints, and a close while it
  // starts waits for it and ends it (database.ts).
  void checkpointInThread(app);
  return app;
}

/** SQLite's checkpoints off the requests' path (src/db/wal-checkpoints.ts); without the thread, SQLite's own. */
async function checkpointInThread(app: App): Promise<void> {
  try {
    await app.database.checkpointInThread?.();
  } catch (error) {
    app.log.warn({ err: error }, 'SQLite checkpoints stay in the server connection: their thread did not start');
  }
}

/**
 * A process that only runs jobs, beside the servers, against the same PostgreSQL. SQLite belongs to
 * the one server process that opened it, whose own worker does the work.
 */
export async function startWorkerProcess(config: Config, ownerPassword?: FirstOwnerPassword): Promise<App> {
  if (!config.databaseUrl) throw new Error('agent-platform worker needs DATABASE_URL (PostgreSQL); on SQLite the server runs the worker itself');
  const app = await buildApp({ ...config, worker: { ...config.worker, inProcess: true } }, ownerPassword);
  releaseYoungGeneration();
  app.log.info({ database: app.database.description, worker: app.services.worker.owner }, 'worker is running');
  closeOnSignals(app);
  return app;
}

/**
 * On SIGTERM or SIGINT: stop taking requests, let those in flight finish within SHUTDOWN_GRACE_MS,
 * then exit 0; past the grace, exit 1 and cut what is left. The log says what the stop waits for,
 * and what it cut.
 */
function closeOnSignals(app: App): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = app.config.shutdownGraceMs;
    const waiting = workInFlight(app);
    app.log.info({ signal, graceMs, ...waiting }, `shutting down: waiting up to ${seconds(graceMs)} for ${describeWork(waiting)}`);
    const cut = setTimeout(() => {
      const left = workInFlight(app);
      app.log.error({ graceMs, ...left }, `shutdown grace of ${seconds(graceMs)} ran out: cutting ${describeWork(left)}`);
      process.exit(1);
    }, graceMs);
    cut.unref();
    app.close().then(
      () => {
        app.log.info('shut down: everything in flight finished');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Printed once, on the first start only: the owner's password is not stored in clear anywhere. */
function announceFirstStart(email: string, generatedPassword: string | undefined): void {
  const lines = ['', 'First start: created the organization and its owner.', `  e-mail:   ${email}`];
  lines.push(generatedPassword ? `  password: ${generatedPassword}   (shown this once; log in and keep it safe)` : '  password: the ADMIN_PASSWORD you configured');
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

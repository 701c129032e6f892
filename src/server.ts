// Starts the HTTP server on the configured address and closes it gracefully on SIGTERM or SIGINT:
// stop accepting, finish the requests in flight, close the database.
import { buildApp, type App } from './app.js';
import type { Config } from './config.js';

const SHUTDOWN_GRACE_MS = 10_000;

export async function startServer(config: Config): Promise<App> {
  const app = await buildApp(config);
  if (app.firstStart) announceFirstStart(app.firstStart.email, app.firstStart.generatedPassword);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: app.database.description }, 'Agent Platform is ready');
  closeOnSignals(app);
  return app;
}

/**
 * A process that only runs jobs, beside the servers, against the same PostgreSQL. SQLite belongs to
 * the one server process that opened it, whose own worker does the work.
 */
export async function startWorkerProcess(config: Config): Promise<App> {
  if (!config.databaseUrl) throw new Error('agent-platform worker needs DATABASE_URL (PostgreSQL); on SQLite the server runs the worker itself');
  const app = await buildApp({ ...config, worker: { ...config.worker, inProcess: true } });
  app.log.info({ database: app.database.description, worker: app.services.worker.owner }, 'worker is running');
  closeOnSignals(app);
  return app;
}

function closeOnSignals(app: App): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** Printed once, on the first start only: the owner's password is not stored in clear anywhere. */
function announceFirstStart(email: string, generatedPassword: string | undefined): void {
  const lines = ['', 'First start: created the organization and its owner.', `  e-mail:   ${email}`];
  lines.push(generatedPassword ? `  password: ${generatedPassword}   (shown this once; log in and keep it safe)` : '  password: the ADMIN_PASSWORD you configured');
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

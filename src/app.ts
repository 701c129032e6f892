// The app factory: the server, the CLI and every test build the app here, with the same options.
// External plugins first, then our cross-cutting hooks, then the routes of each module.
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { installConsoleFiles, type ConsoleFiles } from './http/console-files.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installOpenApi } from './http/openapi.js';
import { installCors } from './http/cors.js';
import { installRequestLog, loggerOptions } from './http/request-log.js';
import { trustProxyOption } from './http/trust-proxy.js';
import { installProtection } from './http/protection.js';
import { installMetrics } from './observability/metrics.js';
import { installTracing } from './observability/tracing.js';
import { installRequestsInFlight } from './observability/requests-in-flight.js';
import { generateRequestId } from './http/request-id.js';
import { installStorableTextCheck } from './http/storable-text.js';
import { installUnreadBodyClose } from './http/unread-body.js';
import { installResponseSchemaCheck } from './http/response-schema-check.js';
import { installConditionalJson } from './http/conditional-json.js';
import { ErrorEnvelope } from './http/schemas.js';
import { schemaValidatorFactory } from './http/validation.js';
import { sharedSerializers } from './http/response-serializers.js';
import type { Actor } from './modules/auth/actor.js';
import type { FirstOwnerPassword } from './modules/organizations/first-owner-password.js';
import { createFirstOwner, type FirstStart } from './modules/organizations/first-start.js';
import { resolveSecretKey } from './secret-key.js';
import { openBlobStore, type BlobStore } from './storage/blob-store.js';
import { unitOfWork } from './repositories.js';
import { buildServices, type Services } from './services.js';
import { APP_MODULES } from './app-modules.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    services: Services;
    /** Key for encrypting stored secrets: SECRET_KEY, or generated once and kept in the data folder. */
    secretKey: string;
    /** Uploaded files, named by the server. */
    blobs: BlobStore;
    /** What the first start created, if this start was the first; undefined otherwise. */
    firstStart: FirstStart | undefined;
    /** The web console this process serves; undefined where none was built. */
    consoleFiles: ConsoleFiles | undefined;
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every route that is not public. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** Open to callers without credentials. Every other route requires them. */
    public?: boolean;
  }
}

export type App = FastifyInstance;

/** `ownerPassword`: the first owner's, its hash begun by the caller (see first-owner-password.ts). */
export async function buildApp(config: Config, ownerPassword?: FirstOwnerPassword): Promise<App> {
  const database = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    poolMax: config.databasePoolMax,
    preparedStatements: config.databasePreparedStatements,
    traced: config.observability.tracing !== undefined,
  });
  const app = Fastify({
    logger: loggerOptions(config),
    // Fastify's two lines per request off: installRequestLog writes one, with the status and time.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.limits.jsonBodyBytes,
    genReqId: generateRequestId,
    requestIdHeader: false,
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler,
    // Both compilers ours, so that Fastify loads neither of its own (Ajv, fast-json-stringify) at start.
    schemaController: { compilersFactory: { buildValidator: schemaValidatorFactory, buildSerializer: sharedSerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onClose', async () => database.close());
  try {
    await migrateToLatest(database);
    app.decorate('firstStart', await createFirstOwner(unitOfWork(database), config, ownerPassword));
  } catch (error) {
    await database.close();
    throw error;
  }
  app.decorate('config', config);
  app.decorate('secretKey', resolveSecretKey(config));
  app.decorate('blobs', openBlobStore(config.dataDir));
  app.decorate('database', database);
  app.decorate('services', buildServices(database, config, app.blobs, app.log));
  try {
    // Before the worker starts: whether documents pass through `embedding`, said in the log.
    await app.services.vectors.prepare();
  } catch (error) {
    app.services.egress.close();
    await database.close();
    throw error;
  }
  app.decorateRequest('actor', null as unknown as Actor);

  app.addSchema(ErrorEnvelope);
  app.decorate('consoleFiles', await installConsoleFiles(app, config.consoleDir));
  installErrorHandler(app, database.dialect, app.consoleFiles);
  installJsonBodyParser(app);
  installStorableTextCheck(app);
  installUnreadBodyClose(app);
  installRequestLog(app);
  installRequestsInFlight(app);
  // Before the response check: its hook must run after the 304 is made, on what is sent.
  installConditionalJson(app);
  if (config.responseSchemaCheck) installResponseSchemaCheck(app);
  await installCors(app, config.corsOrigins);
  // Multipart uploads, bounded in file size, file count and parts; routes read them as streams.
  await app.register(multipart, {
    limits: {
      fileSize: config.limits.uploadFileBytes,
      files: config.limits.uploadFiles,
      fields: 100,
      parts: config.limits.uploadFiles + 100,
      fieldSize: config.limits.jsonBodyBytes,
      headerPairs: 200,
    },
  });
  // First of the request hooks, so that a request's span covers the rate limit and authentication.
  const traceJob = await installTracing(app, config.observability.tracing);
  if (traceJob) app.services.worker.traceJobsWith(traceJob);
  await installProtection(app, config, app.services.auth);
  await installOpenApi(app);
  // After the OpenAPI plugin, which documents only the routes added after it.
  installMetrics(app, config.observability, app.services.store.repos);

  // The routes of every module, in the order of the list, which is the order of the API document.
  for (const appModule of APP_MODULES) {
    for (const routes of appModule.routes) await app.register(routes);
  }
  // Before the database closes: jobs in flight finish (or keep their lease, to be taken again).
  app.addHook('preClose', async () => app.services.worker.stop());
  // Once the last request is answered: closing the outbound connections earlier would cut the model
  // calls of answers still streaming, and the extraction threads may serve an upload in flight.
  app.addHook('onClose', async () => {
    await app.services.ingestion.close();
    app.services.egress.close();
  });
  await app.ready();
  await startWorker(app);
  return app;
}

/**
 * The in-process worker. On SQLite this process is the only one on the database, so every lease
 * found at start is left over from a process that died: they are released at once.
 */
async function startWorker(app: App): Promise<void> {
  if (!app.config.worker.inProcess) return;
  if (!app.database.dialect.sharedByProcesses) await app.services.store.repos.jobs.releaseAllLeases(new Date().toISOString());
  app.services.worker.start();
}

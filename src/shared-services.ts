// What the services of every module are built from: the database's unit of work, the configuration,
// the stored files and the log, the outbound client, the embedder, the secret box, the extraction
// threads, the feature flags and notifications (which most modules consult or send), and the
// worker's wake-up for those that enqueue jobs (the worker is built last, from the modules' handlers).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { ServedBytes } from './http/served-bytes.js';
import { createIngestion } from './ingest/ingestion.js';
import { FeatureFlagsService } from './modules/flags/flags.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { createEgressClient } from './net/egress.js';
import { createEmbedder } from './providers/embeddings/create-embedder.js';
import { unitOfWork } from './repositories.js';
import { resolveSecretKey } from './secret-key.js';
import { SecretBox } from './secrets/secret-box.js';
import type { BlobStore } from './storage/blob-store.js';

export function buildSharedServices(database: Database, config: Config, blobs: BlobStore, log: FastifyBaseLogger, wakeWorker: () => void) {
  const store = unitOfWork(database);
  const egress = createEgressClient(config.egress);
  return {
    database,
    config,
    blobs,
    log,
    wakeWorker,
    store,
    egress,
    embedder: createEmbedder(config.embedding, egress),
    secrets: new SecretBox(resolveSecretKey(config), config.secretKeyPrevious),
    ingestion: createIngestion(),
    flags: new FeatureFlagsService(store),
    notifications: new NotificationsService(store),
    /** The last answers of the version-tagged listings, by tag (served-bytes.ts). */
    servedBytes: new ServedBytes(),
  };
}

export type SharedServices = ReturnType<typeof buildSharedServices>;

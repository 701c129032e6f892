import { detectDocumentType } from '../../ingest/ingestion.js';
import type { JobHandlers } from '../../jobs/job-handler.js';
import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { DocumentIntake } from '../documents/intake.js';
import { GraphDriveAdapter, SourceSync } from '../sources/index.js';
import { connectorsRoutes } from './connectors.routes.js';
import { ConnectorsService } from './connectors.service.js';

export const connectorsModule: AppModule = { name: 'connectors', routes: [connectorsRoutes] };

/** Connectors, and the sync of their document libraries: the handler of 'connector.sync'. */
export function buildConnectorsServices({ store, blobs, secrets, egress, flags, config, wakeWorker }: SharedServices, { corpora }: { corpora: CorporaService }) {
  const intake = new DocumentIntake(store, blobs, wakeWorker);
  const adapter = new GraphDriveAdapter({ store, intake, secrets, detectType: detectDocumentType }, egress, {
    ...config.connectors,
    maxFileBytes: config.limits.uploadFileBytes,
    maxRetries: 4,
    maxWaitMs: 120_000,
  });
  const connectorSync = new SourceSync(store, adapter, wakeWorker);
  return {
    services: { connectors: new ConnectorsService(store, flags, corpora, secrets, wakeWorker), connectorSync },
    jobHandlers: { 'connector.sync': connectorSync } satisfies Partial<JobHandlers>,
  };
}

import { detectDocumentType } from '../../ingest/ingestion.js';
import type { JobHandlers } from '../../jobs/job-handler.js';
import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { VectorIndex } from '../retrieval/vector-index.js';
import { DocumentPages } from './document-pages.js';
import { documentsRoutes } from './documents.routes.js';
import { DocumentsService } from './documents.service.js';
import { eventsRoutes } from './events.routes.js';
import { legacyDocumentsRoutes } from './legacy-documents.routes.js';
import { LegacyListing } from './legacy-listing.js';
import { ListingTags } from './listing-tags.js';
import { DocumentProcessor } from './pipeline/process-document.js';
import { DocumentProgress } from './progress-events.js';
import { fetchDocumentUrl } from './url-documents.js';

export const documentsModule: AppModule = { name: 'documents', routes: [documentsRoutes, legacyDocumentsRoutes, eventsRoutes] };

/** The documents' services, and the pipeline that processes them: the handler of 'document.process'. */
export function buildDocumentsServices(shared: SharedServices, { corpora, vectors }: { corpora: CorporaService; vectors: VectorIndex }) {
  const { database, store, blobs, ingestion, egress, notifications, config, wakeWorker } = shared;
  const processor = new DocumentProcessor(store, blobs, ingestion, vectors, (document, reason) => notifications.documentFailed(document, reason));
  const sources = { detectType: detectDocumentType, fetchUrl: (url: string) => fetchDocumentUrl(egress, url, config.limits.uploadFileBytes) };
  return {
    services: {
      documents: new DocumentsService(store, blobs, corpora, sources, wakeWorker),
      legacyListing: new LegacyListing(store),
      documentPages: new DocumentPages(store),
      listingTags: new ListingTags(store, corpora),
      progress: new DocumentProgress(store, corpora, database.notices),
    },
    jobHandlers: { 'document.process': processor } satisfies Partial<JobHandlers>,
  };
}

import { detectDocumentType } from '../../ingest/ingestion.js';
import { resolveSecretKey } from '../../secret-key.js';
import type { JobHandlers } from '../../jobs/job-handler.js';
import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { DocumentIntake } from '../documents/intake.js';
import { MailboxAdapter, MailProviders, SourceSync, StateSigner } from '../sources/index.js';
import { EmailAuthorizationService } from './email-authorization.service.js';
import { emailIndexingRoutes } from './email-indexing.routes.js';
import { MailboxesService } from './mailboxes.service.js';

export const emailIndexingModule: AppModule = { name: 'email-indexing', routes: [emailIndexingRoutes] };

/** Mailboxes, their authorization, and the sync of their messages: the handler of 'mailbox.sync'. */
export function buildEmailIndexingServices({ store, blobs, secrets, egress, config, wakeWorker }: SharedServices, { corpora }: { corpora: CorporaService }) {
  const intake = new DocumentIntake(store, blobs, wakeWorker);
  const mailProviders = new MailProviders(config.emailIndexing, egress);
  const adapter = new MailboxAdapter({ store, intake, secrets, detectType: detectDocumentType }, mailProviders, {
    maxFileBytes: config.limits.uploadFileBytes,
    maxRetries: 4,
    maxWaitMs: 120_000,
  });
  const mailSync = new SourceSync(store, adapter, wakeWorker);
  const stateSigner = new StateSigner(resolveSecretKey(config));
  return {
    services: {
      emailAuthorization: new EmailAuthorizationService(store, corpora, secrets, mailProviders, stateSigner, wakeWorker),
      mailboxes: new MailboxesService(store, corpora, wakeWorker),
      mailSync,
    },
    jobHandlers: { 'mailbox.sync': mailSync } satisfies Partial<JobHandlers>,
  };
}

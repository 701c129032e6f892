// Every service of the server, built once per app over one database, and the worker that runs the
// jobs they enqueue. Each module builds its own services (its `<name>.module.ts`) from the shared
// ones and from those of the modules it depends on, so the builders are called in that order; the
// worker is built last, from the job handlers the modules own, and woken by the services before it.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { Worker } from './jobs/worker.js';
import { buildAgentsServices } from './modules/agents/agents.module.js';
import { buildAnalyticsServices } from './modules/analytics/analytics.module.js';
import { buildAuthServices } from './modules/auth/auth.module.js';
import { buildChatServices } from './modules/chat/chat.module.js';
import { buildConnectorsServices } from './modules/connectors/connectors.module.js';
import { buildCorporaServices } from './modules/corpora/corpora.module.js';
import { buildDocumentsServices } from './modules/documents/documents.module.js';
import { buildEmailIndexingServices } from './modules/email-indexing/email-indexing.module.js';
import { buildEvaluationsServices } from './modules/evaluations/evaluations.module.js';
import { buildGuardrailsServices } from './modules/guardrails/guardrails.module.js';
import { buildLlmServices } from './modules/llm/llm.module.js';
import { buildOrganizationsServices } from './modules/organizations/organizations.module.js';
import { buildProjectsServices } from './modules/projects/projects.module.js';
import { buildRuntimeServices } from './modules/runtime/runtime.module.js';
import { buildTeamsServices } from './modules/teams/teams.module.js';
import { buildToolImportsServices } from './modules/tool-imports/tool-imports.module.js';
import { buildToolsServices } from './modules/tools/tools.module.js';
import { buildUsersServices } from './modules/users/users.module.js';
import { buildSharedServices } from './shared-services.js';
import type { BlobStore } from './storage/blob-store.js';

export function buildServices(database: Database, config: Config, blobs: BlobStore, log: FastifyBaseLogger) {
  const shared = buildSharedServices(database, config, blobs, log, () => worker.wake());
  const { store, flags, notifications, egress, ingestion, servedBytes } = shared;
  const corporaServices = buildCorporaServices(shared);
  const llmServices = buildLlmServices(shared);
  const toolsServices = buildToolsServices(shared, corporaServices);
  const toolImportsServices = buildToolImportsServices(shared, toolsServices);
  const guardrailsServices = buildGuardrailsServices(shared);
  const runtimeServices = buildRuntimeServices(shared, { ...corporaServices, ...llmServices, ...toolsServices, ...guardrailsServices });
  const documentsServices = buildDocumentsServices(shared, corporaServices);
  const connectorsServices = buildConnectorsServices(shared, corporaServices);
  const emailIndexingServices = buildEmailIndexingServices(shared, corporaServices);
  const evaluationsServices = buildEvaluationsServices(shared, { ...runtimeServices, ...llmServices });
  const worker = new Worker(
    store,
    { ...documentsServices.jobHandlers, ...connectorsServices.jobHandlers, ...emailIndexingServices.jobHandlers, ...evaluationsServices.jobHandlers, ...toolImportsServices.jobHandlers },
    config.worker,
    log,
  );
  return {
    store,
    flags,
    notifications,
    egress,
    ingestion,
    servedBytes,
    worker,
    ...buildAuthServices(shared),
    ...buildUsersServices(shared),
    ...buildOrganizationsServices(shared),
    ...buildTeamsServices(shared),
    ...buildProjectsServices(shared),
    ...buildAgentsServices(shared, { ...corporaServices, ...llmServices }),
    ...buildChatServices(shared),
    ...corporaServices,
    ...documentsServices.services,
    ...connectorsServices.services,
    ...emailIndexingServices.services,
    ...llmServices,
    ...toolsServices,
    ...toolImportsServices.services,
    ...guardrailsServices,
    ...runtimeServices,
    ...evaluationsServices.services,
    ...buildAnalyticsServices(shared, corporaServices),
  };
}

export type Services = ReturnType<typeof buildServices>;

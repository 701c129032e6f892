// Every service of the server, built once per app over one database, and the worker that runs
// the jobs they enqueue.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createIngestion, detectDocumentType } from './ingest/ingestion.js';
import { Worker } from './jobs/worker.js';
import { AgentsService } from './modules/agents/agents.service.js';
import { AnalyticsService } from './modules/analytics/analytics.service.js';
import { fileTextReader } from './modules/attachments/attachment-text.js';
import { AttachmentsService } from './modules/attachments/attachments.service.js';
import { FavoritesService } from './modules/agents/favorites.service.js';
import { HistoryService } from './modules/agents/history.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BuilderService } from './modules/builder/builder.service.js';
import { AgentImagesService } from './modules/agent-images/agent-images.service.js';
import { createImageGenerator } from './providers/images/create-image-generator.js';
import { ChatLogsService } from './modules/chat/chat-logs.service.js';
import { FeedbackService } from './modules/chat/feedback.service.js';
import { ResponsesService } from './modules/chat/responses.service.js';
import { ThreadsService } from './modules/chat/threads.service.js';
import { ConnectorsService } from './modules/connectors/connectors.service.js';
import { EmailAuthorizationService } from './modules/email-indexing/email-authorization.service.js';
import { GraphDriveAdapter, MailboxAdapter, MailProviders, SourceSync, StateSigner } from './modules/sources/index.js';
import { MailboxesService } from './modules/email-indexing/mailboxes.service.js';
import { CorporaService } from './modules/corpora/corpora.service.js';
import { DocumentsService } from './modules/documents/documents.service.js';
import { DocumentIntake } from './modules/documents/intake.js';
import { LegacyListing } from './modules/documents/legacy-listing.js';
import { DocumentPages } from './modules/documents/document-pages.js';
import { DocumentProgress } from './modules/documents/progress-events.js';
import { DocumentProcessor } from './modules/documents/pipeline/process-document.js';
import { fetchDocumentUrl } from './modules/documents/url-documents.js';
import { FeatureFlagsService } from './modules/flags/flags.service.js';
import { GuardrailsService } from './modules/guardrails/guardrails.service.js';
import { LlmConfigurationsService } from './modules/llm/llm-configurations.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { ConfigurationsService } from './modules/organizations/configurations.service.js';
import { OrganizationsService } from './modules/organizations/organizations.service.js';
import { ProjectsService } from './modules/projects/projects.service.js';
import { SearchService } from './modules/retrieval/search.service.js';
import { AskService } from './modules/runtime/ask.service.js';
import { TeamsService } from './modules/teams/teams.service.js';
import { ToolsService } from './modules/tools/tools.service.js';
import { UsersService } from './modules/users/users.service.js';
import { createEgressClient } from './net/egress.js';
import { createEmbedder } from './providers/embeddings/create-embedder.js';
import { DatasetsService } from './modules/evaluations/datasets.service.js';
import { EvaluationProgress } from './modules/evaluations/evaluation-progress.js';
import { EvaluationRunner } from './modules/evaluations/evaluation-runner.js';
import { EvaluationsService } from './modules/evaluations/evaluations.service.js';
import { MetricsService } from './modules/evaluations/metrics.service.js';
import { VectorIndex } from './modules/retrieval/vector-index.js';
import { unitOfWork } from './repositories.js';
import { resolveSecretKey } from './secret-key.js';
import { SecretBox } from './secrets/secret-box.js';
import type { BlobStore } from './storage/blob-store.js';
import type { ToolDeps } from './tools/index.js';

export function buildServices(database: Database, config: Config, blobs: BlobStore, log: FastifyBaseLogger) {
  const store = unitOfWork(database);
  const flags = new FeatureFlagsService(store);
  const notifications = new NotificationsService(store);
  const egress = createEgressClient(config.egress);
  const embedder = createEmbedder(config.embedding, egress);
  const vectors = new VectorIndex(store, embedder, log);
  const guardrails = new GuardrailsService(store, flags, embedder);
  const ingestion = createIngestion();
  const processor = new DocumentProcessor(store, blobs, ingestion, vectors, (document, reason) => notifications.documentFailed(document, reason));
  const secrets = new SecretBox(resolveSecretKey(config), config.secretKeyPrevious);
  // The one writer of documents, whatever brings them (uploads build theirs in DocumentsService).
  const intake = new DocumentIntake(store, blobs, () => worker.wake());
  const sourceDeps = { store, intake, secrets, detectType: detectDocumentType };
  const connectorSync = new SourceSync(
    store,
    new GraphDriveAdapter(sourceDeps, egress, { ...config.connectors, maxFileBytes: config.limits.uploadFileBytes, maxRetries: 4, maxWaitMs: 120_000 }),
    () => worker.wake(),
  );
  const corpora = new CorporaService(store, blobs, () => vectors.mode);
  const mailProviders = new MailProviders(config.emailIndexing, egress);
  const mailSync = new SourceSync(
    store,
    new MailboxAdapter(sourceDeps, mailProviders, { maxFileBytes: config.limits.uploadFileBytes, maxRetries: 4, maxWaitMs: 120_000 }),
    () => worker.wake(),
  );
  const responses = new ResponsesService(store);
  const search = new SearchService(store, corpora, vectors, log);
  const llm = new LlmConfigurationsService(store, secrets, egress, { timeoutMs: config.limits.llmTimeoutMs, maxRetries: 2 });
  const toolDeps: ToolDeps = { egress, store, search, corpora, blobs, maxOutputCharacters: config.limits.toolOutputCharacters };
  const tools = new ToolsService(store, flags, secrets, toolDeps, {
    allowedHosts: config.egress.allowedHosts,
    timeoutMs: config.limits.toolTimeoutMs,
    maxResponseBytes: config.limits.toolResponseBytes,
  });
  const sources = { detectType: detectDocumentType, fetchUrl: (url: string) => fetchDocumentUrl(egress, url, config.limits.uploadFileBytes) };
  const asks = new AskService(store, search, llm, {
    llmTimeoutMs: config.limits.llmTimeoutMs,
    log,
    limits: {
      toolTimeoutMs: config.limits.toolTimeoutMs,
      toolResponseBytes: config.limits.toolResponseBytes,
      toolOutputCharacters: config.limits.toolOutputCharacters,
      toolSteps: config.limits.toolSteps,
      budgetUsd: config.limits.answerBudgetUsd,
    },
    tools,
    guardrails,
  });
  const datasets = new DatasetsService(store);
  const evaluationProgress = new EvaluationProgress();
  const evaluationRunner = new EvaluationRunner({ store, asks, llm, embedder, progress: evaluationProgress, log });
  const worker = new Worker(store, { 'document.process': processor, 'connector.sync': connectorSync, 'evaluation.run': evaluationRunner, 'mailbox.sync': mailSync }, config.worker, log);
  return {
    store,
    flags,
    notifications,
    auth: new AuthService(store, config, flags),
    users: new UsersService(store, config),
    organizations: new OrganizationsService(store, blobs),
    configurations: new ConfigurationsService(store),
    teams: new TeamsService(store, notifications),
    projects: new ProjectsService(store, notifications),
    agents: new AgentsService(
      store,
      flags,
      (actor, agentId) => corpora.corporaOfAgent(actor, agentId),
      (actor, corpusId) => corpora.requireCorpus(actor, corpusId, 'read'),
    ),
    history: new HistoryService(store, flags),
    favorites: new FavoritesService(store),
    threads: new ThreadsService(store),
    attachments: new AttachmentsService(store, fileTextReader(ingestion, detectDocumentType)),
    responses,
    feedback: new FeedbackService(store, responses),
    chatLogs: new ChatLogsService(store),
    corpora,
    documents: new DocumentsService(store, blobs, corpora, sources, () => worker.wake()),
    connectors: new ConnectorsService(store, flags, corpora, secrets, () => worker.wake()),
    connectorSync,
    emailAuthorization: new EmailAuthorizationService(store, corpora, secrets, mailProviders, new StateSigner(resolveSecretKey(config)), () => worker.wake()),
    mailboxes: new MailboxesService(store, corpora, () => worker.wake()),
    mailSync,
    legacyListing: new LegacyListing(store, corpora),
    documentPages: new DocumentPages(store, corpora),
    progress: new DocumentProgress(store, corpora, database.notices),
    search,
    asks,
    datasets,
    metrics: new MetricsService(store, embedder !== undefined),
    evaluations: new EvaluationsService({ store, datasets, runner: evaluationRunner, progress: evaluationProgress, hasEmbedder: embedder !== undefined, wake: () => worker.wake() }),
    evaluationProgress,
    vectors,
    ingestion,
    worker,
    egress,
    llm,
    tools,
    guardrails,
    builder: new BuilderService(store, flags, corpora, llm, { llmTimeoutMs: config.limits.llmTimeoutMs }),
    agentImages: new AgentImagesService(store, flags, blobs, createImageGenerator(config.image, egress), config.limits.imageBytes),
    analytics: new AnalyticsService(store, corpora),
  };
}

export type Services = ReturnType<typeof buildServices>;

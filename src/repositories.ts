// The unit of work: every repository of the server, bound to one connection — the database's pool
// outside a transaction, or one transaction inside it. Services receive a UnitOfWork and never see
// Kysely; `transaction` hands the work a bundle whose every repository writes in that transaction.
// Repositories are made on first use, so a bundle costs nothing for the ones a request does not touch.
import type { Kysely } from 'kysely';
import { AtCommit } from './db/at-commit.js';
import type { Database } from './db/database.js';
import type { Dialect } from './db/dialect.js';
import type { DB } from './db/schema.js';
import { ReadVersionsRepo } from './db/read-versions.repo.js';
import { JobsRepo } from './jobs/jobs.repo.js';
import { AgentsRepo } from './modules/agents/agents.repo.js';
import { FavoritesRepo } from './modules/agents/favorites.repo.js';
import { HistoryRepo } from './modules/agents/history.repo.js';
import { AttachmentsRepo } from './modules/attachments/attachments.repo.js';
import { AuthRepo } from './modules/auth/auth.repo.js';
import { CorporaRepo } from './modules/corpora/corpora.repo.js';
import { DocumentListingRepo } from './modules/documents/document-listing.repo.js';
import { DocumentsRepo } from './modules/documents/documents.repo.js';
import { ConnectorsRepo } from './modules/connectors/connectors.repo.js';
import { MailboxesRepo } from './modules/email-indexing/mailboxes.repo.js';
import { SourceSyncRepo } from './modules/sources/source-sync.repo.js';
import { SyncJobsRepo } from './modules/sources/sync-jobs.repo.js';
import { ChatLogsRepo } from './modules/chat/chat-logs.repo.js';
import { FeedbackRepo } from './modules/chat/feedback.repo.js';
import { ResponsesRepo } from './modules/chat/responses.repo.js';
import { AskRepo } from './modules/runtime/ask.repo.js';
import { ThreadsRepo } from './modules/chat/threads.repo.js';
import { FlagsRepo } from './modules/flags/flags.repo.js';
import { GuardrailsRepo } from './modules/guardrails/guardrails.repo.js';
import { LlmConfigurationsRepo } from './modules/llm/llm-configurations.repo.js';
import { NotificationsRepo } from './modules/notifications/notifications.repo.js';
import { ConfigurationsRepo } from './modules/organizations/configurations.repo.js';
import { OrganizationsRepo } from './modules/organizations/organizations.repo.js';
import { ProjectsRepo } from './modules/projects/projects.repo.js';
import { PassagesRepo } from './modules/retrieval/passages.repo.js';
import { VectorsRepo } from './modules/retrieval/vectors.repo.js';
import { TeammatesRepo } from './modules/teams/teammates.repo.js';
import { TeamsRepo } from './modules/teams/teams.repo.js';
import { ToolsRepo } from './modules/tools/tools.repo.js';
import { ToolImportsRepo } from './modules/tool-imports/tool-imports.repo.js';
import { PasswordTokensRepo } from './modules/users/password-tokens.repo.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { DatasetsRepo } from './modules/evaluations/datasets.repo.js';
import { EvaluationResultsRepo } from './modules/evaluations/evaluation-results.repo.js';
import { EvaluationsRepo } from './modules/evaluations/evaluations.repo.js';
import { MetricsRepo } from './modules/evaluations/metrics.repo.js';
import { UsageEventsRepo } from './modules/analytics/usage-events.repo.js';
import { AnalyticsRepo } from './modules/analytics/analytics.repo.js';

/**
 * Every repository takes the connection it runs on and the dialect (most ignore it), and in a
 * transaction what it may leave to the transaction's end (most write at once).
 */
type RepositoryClass = new (db: Kysely<DB>, dialect: Dialect, atCommit?: AtCommit) => object;

const REPOSITORIES = {
  agents: AgentsRepo,
  analytics: AnalyticsRepo,
  ask: AskRepo,
  attachments: AttachmentsRepo,
  auth: AuthRepo,
  chatLogs: ChatLogsRepo,
  configurations: ConfigurationsRepo,
  connectors: ConnectorsRepo,
  corpora: CorporaRepo,
  datasets: DatasetsRepo,
  documentListing: DocumentListingRepo,
  documents: DocumentsRepo,
  evaluationMetrics: MetricsRepo,
  evaluationResults: EvaluationResultsRepo,
  evaluations: EvaluationsRepo,
  favorites: FavoritesRepo,
  feedback: FeedbackRepo,
  flags: FlagsRepo,
  guardrails: GuardrailsRepo,
  history: HistoryRepo,
  jobs: JobsRepo,
  llmConfigurations: LlmConfigurationsRepo,
  mailboxes: MailboxesRepo,
  notifications: NotificationsRepo,
  organizations: OrganizationsRepo,
  passages: PassagesRepo,
  passwordTokens: PasswordTokensRepo,
  projects: ProjectsRepo,
  readVersions: ReadVersionsRepo,
  responses: ResponsesRepo,
  sourceSync: SourceSyncRepo,
  syncJobs: SyncJobsRepo,
  teammates: TeammatesRepo,
  teams: TeamsRepo,
  threads: ThreadsRepo,
  tools: ToolsRepo,
  toolImports: ToolImportsRepo,
  usageEvents: UsageEventsRepo,
  users: UsersRepo,
  vectors: VectorsRepo,
} satisfies Record<string, RepositoryClass>;

export type Repositories = { readonly [K in keyof typeof REPOSITORIES]: InstanceType<(typeof REPOSITORIES)[K]> };

export function bindRepositories(db: Kysely<DB>, dialect: Dialect, atCommit?: AtCommit): Repositories {
  const bundle = {} as Record<string, object>;
  for (const [name, Repository] of Object.entries(REPOSITORIES) as [string, RepositoryClass][]) {
    let instance: object | undefined;
    Object.defineProperty(bundle, name, { enumerable: true, get: () => (instance ??= new Repository(db, dialect, atCommit)) });
  }
  return bundle as Repositories;
}

export interface UnitOfWork {
  /** Repositories outside any transaction: each statement commits on its own. */
  readonly repos: Repositories;
  /**
   * Runs the work in one transaction: all of it commits, or none of it when the work throws. What its
   * repositories leave to the end (AtCommit: a corpus's events) is written after the work, before the commit;
   * what they tell of it (AtCommit.afterCommit), after the commit.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * Runs pieces of work one after another in one transaction, which commits them together. When a
   * piece throws (or the transaction fails), all is undone and each piece is run again in a
   * transaction of its own, so that only what fails again answers its error. A piece may therefore
   * run twice; only the writes of its last run remain.
   */
  transactionInParts<T>(parts: readonly ((repos: Repositories) => Promise<T>)[]): Promise<PromiseSettledResult<T>[]>;
  /** The error says the database could not be reached (or is locked, or full): trying later may succeed. */
  isUnavailable(error: unknown): boolean;
  /** The database writes one transaction at a time (SQLite): more at once only queue. */
  readonly oneWriterAtATime: boolean;
}

export function unitOfWork(database: Database): UnitOfWork {
  const { db, dialect } = database;
  const transaction = async <T>(work: (repos: Repositories) => Promise<T>) => {
    const atCommit = new AtCommit();
    const value = await db.transaction().execute(async (trx) => {
      const value = await work(bindRepositories(trx, dialect, atCommit));
      await atCommit.run();
      return value;
    });
    atCommit.committed();
    return value;
  };
  return {
    repos: bindRepositories(db, dialect),
    transaction,
    transactionInParts: async (parts) => {
      // No savepoint a piece: on PostgreSQL each costs two round trips, in the transaction that holds
      // every document waiting to be stored, and pieces fail seldom (a document deleted meanwhile).
      try {
        const values = await transaction(async (repos) => {
          const done = [];
          for (const part of parts) done.push(await part(repos));
          return done;
        });
        return values.map((value) => ({ status: 'fulfilled', value }));
      } catch (error) {
        if (parts.length === 1) return [{ status: 'rejected', reason: error }];
        const settled = [];
        for (const part of parts) {
          try {
            settled.push({ status: 'fulfilled' as const, value: await transaction(part) });
          } catch (reason) {
            settled.push({ status: 'rejected' as const, reason });
          }
        }
        return settled;
      }
    },
    isUnavailable: (error) => dialect.isUnavailable(error),
    oneWriterAtATime: dialect.oneWriterAtATime,
  };
}

// Runs the dated migrations in order. One set serves both databases; each migration asks the
// dialect for the few column types that differ. Kysely's migrator takes a lock, so several
// processes starting at once against PostgreSQL migrate only once.
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';
import * as identity from './migrations/2026_11_20_0001_identity.js';
import * as agents from './migrations/2026_11_20_0002_agents.js';
import * as corpora from './migrations/2026_11_20_0003_corpora.js';
import * as people from './migrations/2026_11_20_0004_people.js';
import * as vectors from './migrations/2026_11_20_0006_vectors.js';
import * as runtime from './migrations/2026_11_23_0007_runtime.js';
import * as search from './migrations/2026_11_23_0008_search.js';
import * as credentialsEpoch from './migrations/2026_11_23_0009_credentials_epoch.js';
import * as tools from './migrations/2026_11_23_0010_tools.js';
import * as agentToolsGuardrails from './migrations/2026_11_23_0013_agent_tools_guardrails.js';
import * as threadAttachments from './migrations/2026_11_23_0011_thread_attachments.js';
import * as guardrails from './migrations/2026_11_23_0012_guardrails.js';
import * as evaluations from './migrations/2026_11_23_0014_evaluations.js';
import * as usageEvents from './migrations/2026_11_23_0015_usage_events.js';
import * as usageRollups from './migrations/2026_11_23_0018_usage_rollups.js';
import * as agentImages from './migrations/2026_11_23_0017_agent_images.js';
import * as connectors from './migrations/2026_11_23_0016_connectors.js';
import * as emailIndexing from './migrations/2026_11_24_0020_email_indexing.js';
import * as usageDailyRollups from './migrations/2026_11_24_0019_usage_daily_rollups.js';
import * as mailboxSchedule from './migrations/2026_11_24_0021_mailbox_schedule.js';
import * as searchPendingList from './migrations/2026_11_24_0022_search_pending_list.js';
import * as organizationScopedIndexes from './migrations/2026_11_24_0023_organization_scoped_indexes.js';
import * as documentReferences from './migrations/2026_11_24_0024_document_references.js';
import * as chunkRowsNarrow from './migrations/2026_11_24_0025_chunk_rows_narrow.js';
import * as chunkTsvectorWritten from './migrations/2026_11_25_0026_chunk_tsvector_written.js';
import * as lz4Compression from './migrations/2026_11_25_0027_lz4_compression.js';
import * as maxAnswerTokens from './migrations/2026_11_28_0028_max_answer_tokens.js';
import * as searchGenerations from './migrations/2026_11_28_0029_search_generations.js';
import * as sourceSyncColumns from './migrations/2026_11_28_0030_source_sync_columns.js';
import * as mcpTools from './migrations/2026_11_28_0040_mcp_tools.js';
import * as toolImports from './migrations/2026_11_28_0050_tool_imports.js';
import * as corpusListingVersions from './migrations/2026_11_28_0060_corpus_listing_versions.js';
import * as readVersions from './migrations/2026_11_28_0080_read_versions.js';

type DialectMigration = { up: (db: Parameters<Migration['up']>[0], dialect: Dialect) => Promise<void> };

const MIGRATIONS: Record<string, DialectMigration> = {
  '2026_11_20_0001_identity': identity,
  '2026_11_20_0002_agents': agents,
  '2026_11_20_0003_corpora': corpora,
  '2026_11_20_0004_people': people,
  '2026_11_20_0006_vectors': vectors,
  '2026_11_23_0007_runtime': runtime,
  '2026_11_23_0008_search': search,
  '2026_11_23_0009_credentials_epoch': credentialsEpoch,
  '2026_11_23_0010_tools': tools,
  '2026_11_23_0013_agent_tools_guardrails': agentToolsGuardrails,
  '2026_11_23_0011_thread_attachments': threadAttachments,
  '2026_11_23_0012_guardrails': guardrails,
  '2026_11_23_0014_evaluations': evaluations,
  '2026_11_23_0015_usage_events': usageEvents,
  '2026_11_23_0018_usage_rollups': usageRollups,
  '2026_11_23_0017_agent_images': agentImages,
  '2026_11_23_0016_connectors': connectors,
  '2026_11_24_0020_email_indexing': emailIndexing,
  '2026_11_24_0019_usage_daily_rollups': usageDailyRollups,
  '2026_11_24_0021_mailbox_schedule': mailboxSchedule,
  '2026_11_24_0022_search_pending_list': searchPendingList,
  '2026_11_24_0023_organization_scoped_indexes': organizationScopedIndexes,
  '2026_11_24_0024_document_references': documentReferences,
  '2026_11_24_0025_chunk_rows_narrow': chunkRowsNarrow,
  '2026_11_25_0026_chunk_tsvector_written': chunkTsvectorWritten,
  '2026_11_25_0027_lz4_compression': lz4Compression,
  '2026_11_28_0028_max_answer_tokens': maxAnswerTokens,
  '2026_11_28_0029_search_generations': searchGenerations,
  '2026_11_28_0030_source_sync_columns': sourceSyncColumns,
  '2026_11_28_0040_mcp_tools': mcpTools,
  '2026_11_28_0050_tool_imports': toolImports,
  '2026_11_28_0060_corpus_listing_versions': corpusListingVersions,
  '2026_11_28_0080_read_versions': readVersions,
};

class DialectMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, migration]) => [name, { up: (db) => migration.up(db, this.dialect) }]),
    );
  }
}

/** The migrator of the database, with the migrations of its dialect (a test may stop it at one: `migrateTo`). */
export const migratorOf = (database: Database) => new Migrator({ db: database.db, provider: new DialectMigrationProvider(database.dialect) });

/** Applies every migration not yet applied; returns the names applied now. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const { error, results } = await migratorOf(database).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

// Row types of every table, as Kysely sees them. Timestamps are ISO 8601 strings on both databases
// (the PostgreSQL dialect parses timestamptz back into that form); JSON columns hold text.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** An integer key the database generates. */
type Id = Generated<number>;
/** JSON stored as text: written as a string, read as a string, parsed by the repository. */
type JsonText = string;

export interface OrganizationsTable {
  id: Id;
  name: string;
  description: Generated<string>;
  /** Blob-store key of the logo; its type was decided from the bytes when it was uploaded. */
  logo_key: string | null;
  logo_content_type: string | null;
  created_on: string;
  modified_on: string;
  modified_by: number | null;
}

export type OrganizationRole = 'owner' | 'admin' | 'member' | 'viewer';

/** The kinds of tool (src/tools/kinds.ts describes each). */
export type ToolKind = 'api' | 'web_search' | 'retrieval' | 'attachment' | 'mcp';

/** The types of guardrail and what each does on a finding (src/guardrails/definition.ts). */
export type GuardrailType = 'pii' | 'blocked_terms' | 'length' | 'topic';
export type GuardrailAction = 'block' | 'redact' | 'mask' | 'warn';

export interface UsersTable {
  id: Id;
  organization_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: OrganizationRole;
  password_hash: string | null;
  deactivated_on: string | null;
  created_on: string;
  /** null for the owner made at first start */
  created_by: number | null;
  modified_on: string;
  modified_by: number | null;
}

/** One-time tokens that let an invited user choose a password; stored as SHA-256 hashes. */
export interface PasswordTokensTable {
  id: Id;
  user_id: number;
  token_hash: string;
  created_on: string;
  expires_on: string;
}

export interface SessionsTable {
  id: Id;
  user_id: number;
  token_hash: string;
  created_on: string;
  expires_on: string;
}

export interface ApiKeysTable {
  id: Id;
  organization_id: number;
  user_id: number;
  name: string;
  /** The first characters of the key, shown in listings so a user can tell keys apart. */
  prefix: string;
  key_hash: string;
  created_on: string;
  last_used_on: string | null;
  expires_on: string | null;
  revoked_on: string | null;
}

/** One row (id 1): moved by triggers with every change that can end a credential (migration 0009). */
export interface CredentialsEpochTable {
  id: number;
  value: number;
}

export type AgentStatus = 'draft' | 'active' | 'inactive';

export interface AgentsTable {
  id: Id;
  organization_id: number;
  name: string;
  description: string;
  instructions: string;
  model_name: string | null;
  temperature: number;
  max_tokens: number;
  conversation_starters: JsonText;
  alias: string | null;
  status: AgentStatus;
  /** Ownership, not configuration: never in a history snapshot, never changed by a restore. */
  team_id: number | null;
  project_id: number | null;
  /** The LLM configuration that answers; null: the organization's default (none: the offline answerer). */
  llm_configuration_id: number | null;
  /** Retrieval settings (JSON: passages per answer, minimum score). */
  retrieval: Generated<JsonText>;
  /** The tools the agent may call (JSON list of tool ids). */
  tool_ids: Generated<JsonText>;
  /** The guardrails the agent answers under (JSON list of guardrail ids). */
  guardrail_ids: Generated<JsonText>;
  /** Blob-store key of the agent's image; null: none. */
  image_key: Generated<string | null>;
  version: number;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
  deleted_on: string | null;
}

export type HistoryKind = 'create' | 'update' | 'restore' | 'checkpoint' | 'activate' | 'deactivate';

export interface AgentHistoryTable {
  id: Id;
  organization_id: number;
  agent_id: number;
  /** The agent's version once this record was written. */
  version: number;
  kind: HistoryKind;
  checkpoint_name: string;
  description: string | null;
  snapshot: JsonText;
  restored_from_id: number | null;
  created_on: string;
  created_by: number;
}

export interface AgentRecentTable {
  user_id: number;
  agent_id: number;
  used_on: string;
}

export interface AgentStarsTable {
  user_id: number;
  agent_id: number;
  created_on: string;
}

export interface CorporaTable {
  id: Id;
  organization_id: number;
  name: string;
  description: string;
  default_agent_id: number | null;
  conversation_starters: JsonText;
  /** How the corpus's text is analysed for search: a SearchLanguage. */
  language: Generated<string>;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export type CorpusPermission = 'read' | 'write' | 'manage';

/** A corpus's listing version: moved by triggers with every write a listing of its documents can show (migration 0060). */
export interface CorpusListingVersionsTable {
  corpus_id: number;
  value: number;
}

/** Read versions (migration 0080): a counter per scope and subject, moved by triggers with every write a read of it shows. */
export interface ReadVersionsTable {
  /** agent (agent id), agents or corpora (organization id), user (user id: the permission epoch) */
  scope: 'agent' | 'agents' | 'corpora' | 'user';
  subject_id: number;
  value: number;
}

export interface CorpusPermissionsTable {
  corpus_id: number;
  user_id: number;
  permission: CorpusPermission;
  created_on: string;
  created_by: number;
}

export interface CorpusAgentsTable {
  corpus_id: number;
  agent_id: number;
  created_on: string;
  created_by: number;
}

export type DocumentStep = 'queued' | 'extracting' | 'chunking' | 'embedding' | 'indexed';
export type UploadChannel = 'upload' | 'text' | 'url' | 'document_library' | 'email';

export interface DocumentsTable {
  id: Id;
  organization_id: number;
  corpus_id: number;
  type: string;
  source: string;
  access_url: string | null;
  text: string;
  tags: JsonText;
  annotations: string | null;
  upload_from: UploadChannel;
  step: DocumentStep;
  failed_on: string | null;
  error: string | null;
  content_hash: string;
  /** The title the document's file gives, if any. */
  title: string | null;
  file_key: string | null;
  size_bytes: number;
  chunk_count: Generated<number>;
  /** Milliseconds spent in each step, as JSON: {"extracting": 12, …}. */
  step_timings: Generated<JsonText>;
  indexed_on: string | null;
  deleted_on: string | null;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export interface DocumentTagsTable {
  document_id: number;
  tag: string;
}

export interface DocumentEventsTable {
  id: Id;
  corpus_id: number;
  document_id: number;
  step: DocumentStep;
  /** 1 when the step failed; integers rather than booleans, which SQLite cannot bind. */
  is_failed: number;
  error: string | null;
  created_on: string;
}

/** A corpus's search generation: raised by every transaction that changes the corpus's chunks. */
export interface CorpusSearchGenerationsTable {
  corpus_id: number;
  generation: number;
}

export interface ChunksTable {
  id: Id;
  organization_id: number;
  corpus_id: number;
  document_id: number;
  position: number;
  text: string;
  token_count: number;
  page: number | null;
  heading: string | null;
  /** Search terms (src/search/analyzer.ts) of the document's title, the heading path and the text. */
  search_title: string;
  search_heading: string;
  search_body: string;
  /** PostgreSQL only: the tsvector of those terms, as tsvector text when written (src/db/tsvector.ts). */
  search?: string | null;
}

/** What the chunk_vectors table was made for: vectors of one model, of one size. */
export interface VectorIndexesTable {
  /** 'chunks': the one index there is. */
  name: string;
  model: string;
  dimensions: number;
  created_on: string;
}

/**
 * Vectors of chunks (src/db/vector-store.ts): a vec0 virtual table or a pgvector table, made at
 * start for the configured dimension, so it may not exist. The vector column is not listed: only
 * the store's own SQL reads or writes it.
 */
export interface ChunkVectorsTable {
  chunk_id: number;
  corpus_id: number;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: Id;
  organization_id: number;
  kind: string;
  document_id: number | null;
  /** The evaluation an evaluation.run job runs. */
  evaluation_id: Generated<number | null>;
  /** The connector a connector.sync job syncs. */
  connector_id: Generated<number | null>;
  /** The mailbox a mailbox.sync job syncs. */
  mailbox_id: Generated<number | null>;
  /** The import a tool.import job runs. */
  tool_import_id: Generated<number | null>;
  status: JobStatus;
  attempts: Generated<number>;
  max_attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_expires_on: string | null;
  last_error: string | null;
  created_on: string;
  modified_on: string;
}

export type TeamRole = 'lead' | 'editor' | 'viewer';

/** Named things of an organization (teams, projects): the same columns, made by one function of the migration. */
interface NamedRecordsTable {
  id: Id;
  organization_id: number;
  name: string;
  description: string;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export type TeamsTable = NamedRecordsTable;

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  organization_id: number;
  role: TeamRole;
  created_on: string;
  created_by: number;
  modified_on: string;
}

export type ProjectsTable = NamedRecordsTable;

export interface ProjectTeamsTable {
  project_id: number;
  team_id: number;
}

export interface ProjectMembersTable {
  project_id: number;
  user_id: number;
  created_on: string;
  created_by: number;
}

export interface ProjectRecentTable {
  user_id: number;
  project_id: number;
  used_on: string;
}

export interface NotificationsTable {
  id: Id;
  organization_id: number;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  created_on: string;
  read_on: string | null;
}

export interface FeatureFlagsTable {
  organization_id: number;
  flag: string;
  /** 1 on, 0 off (better-sqlite3 binds no booleans) */
  enabled: number;
  modified_on: string;
  modified_by: number;
}

export interface OrganizationConfigurationsTable {
  id: Id;
  organization_id: number;
  name: string;
  settings: JsonText;
  /** Set on the one active configuration of the organization, null on the others. */
  activated_on: string | null;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export interface ModelDeploymentsTable {
  organization_id: number;
  chat_llm_configuration_id: number | null;
  embedding_llm_configuration_id: number | null;
  image_llm_configuration_id: number | null;
  judge_llm_configuration_id: number | null;
  modified_on: string;
  modified_by: number;
}

export type LlmProvider = 'openai' | 'azure_openai' | 'anthropic' | 'openai_compatible';

export interface LlmConfigurationsTable {
  id: Id;
  organization_id: number;
  name: string;
  provider: LlmProvider;
  model: string;
  base_url: string | null;
  api_version: string | null;
  /** The API key sealed with the server's secret key named by api_key_key_id; never returned. */
  api_key_sealed: string | null;
  api_key_key_id: string | null;
  api_key_hint: string | null;
  input_price_per_million: number | null;
  output_price_per_million: number | null;
  context_window: number | null;
  /** Most tokens one answer may take (sent to the provider, enforced on what arrives); 4096 unless set. */
  max_answer_tokens: Generated<number>;
  /** 1 on the organization's default, 0 on the others. */
  is_default: Generated<number>;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export interface ChatThreadsTable {
  id: Id;
  organization_id: number;
  agent_id: number;
  /** The thread's owner. */
  user_id: number;
  title: string;
  pinned: Generated<number>;
  last_activity_on: string;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
  deleted_on: string | null;
}

export interface ChatThreadTagsTable {
  thread_id: number;
  tag: string;
}

export type ResponseStatus = 'completed' | 'blocked' | 'failed';

/** Why an answer ended, in OpenAI's words. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface AgentResponsesTable {
  id: Id;
  organization_id: number;
  thread_id: number;
  agent_id: number;
  project_id: number | null;
  history_id: number | null;
  query: string;
  answer: Generated<string>;
  status: ResponseStatus;
  error: string | null;
  citations: Generated<JsonText>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  /** 1 where the provider gave no usage and the tokens were counted here. */
  tokens_estimated: Generated<number>;
  input_price_per_million: number | null;
  output_price_per_million: number | null;
  cost: number | null;
  latency_ms: Generated<number>;
  first_token_ms: number | null;
  model: string;
  llm_configuration_id: number | null;
  tool_calls: Generated<JsonText>;
  guardrail_actions: Generated<JsonText>;
  /** stop: the model finished; length: cut at the answer's most tokens; null: not finished, failed, blocked, or recorded before. */
  finish_reason: FinishReason | null;
  pinned_on: string | null;
  pinned_by: number | null;
  created_on: string;
  created_by: number;
}

export interface ResponseTagsTable {
  response_id: number;
  tag: string;
}

export type Vote = 'up' | 'down';

export interface ResponseVotesTable {
  response_id: number;
  user_id: number;
  vote: Vote;
  modified_on: string;
}

export interface ResponseRatingsTable {
  response_id: number;
  user_id: number;
  rating: number;
  modified_on: string;
}

interface ResponseNotesTable {
  id: Id;
  response_id: number;
  user_id: number;
  text: string;
  created_on: string;
}

export type ReviewVerdict = 'approved' | 'rejected' | 'needs_changes';

export type ResponseFeedbackTable = ResponseNotesTable;
export type ResponseCommentsTable = ResponseNotesTable;
export interface ResponseReviewsTable extends ResponseNotesTable {
  verdict: ReviewVerdict;
}

export interface ToolsTable {
  id: Id;
  organization_id: number;
  kind: ToolKind;
  /** The name the model sees, unique in the organization. */
  name: string;
  description: string;
  /** The kind's settings (JSON), checked by the kind's schema when written. */
  config: JsonText;
  /** The secret sealed with the server's secret key named by secret_key_id; never returned. */
  secret_sealed: string | null;
  secret_key_id: string | null;
  secret_hint: string | null;
  /** mcp tools: the request headers (JSON object) sealed like the secret, with their key's id; null for other kinds. */
  headers_sealed: string | null;
  headers_key_id: string | null;
  /** mcp tools: the server's tools as last listed (JSON, src/tools/mcp/remote-tools.ts); null for other kinds. */
  remote_tools: JsonText | null;
  /** 1: agents that name the tool may call it; 0: none may. */
  enabled: Generated<number>;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

/** A guardrail of an organization (src/guardrails/definition.ts describes its settings). */
export interface GuardrailsTable {
  id: Id;
  organization_id: number;
  name: string;
  type: GuardrailType;
  /** JSON list of the stages it watches: input, context, output. */
  stages: JsonText;
  action: GuardrailAction;
  /** The type's settings (JSON), checked by the type's schema when written. */
  config: JsonText;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

/** A file given in a chat thread, with its text as extracted when it was given. */
export interface ThreadAttachmentsTable {
  id: Id;
  organization_id: number;
  thread_id: number;
  /** Who gave it: the thread's owner. */
  user_id: number;
  filename: string;
  type: string;
  size_bytes: number;
  characters: number;
  text: string;
  created_on: string;
  created_by: number;
}

/** One model call the platform pays for, with the scope it counts towards (src/modules/analytics/). */
export interface UsageEventsTable {
  id: Id;
  organization_id: number;
  kind: 'answer' | 'judge' | 'embedding';
  /** An answer's response status; null for judges and embeddings. */
  status: ResponseStatus | null;
  agent_id: number | null;
  corpus_id: number | null;
  project_id: number | null;
  team_id: number | null;
  user_id: number | null;
  response_id: number | null;
  evaluation_id: number | null;
  document_id: number | null;
  model: string;
  llm_configuration_id: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  tokens_estimated: Generated<number>;
  /** Whole nano-dollars (USD 1e-9); null when a price was unknown. */
  cost_nano_usd: number | null;
  latency_ms: number | null;
  occurred_on: string;
}

/** Usage events summed by organization, dimension, UTC hour, kind and status; kept by triggers. */
export interface UsageRollupsTable {
  organization_id: number;
  dimension: 'all' | 'agent' | 'user' | 'project' | 'team' | 'corpus';
  /** 0 on the organization's own rows. */
  dimension_id: number;
  hour_on: string;
  kind: UsageEventsTable['kind'];
  /** '' for judges and embeddings. */
  status: string;
  events: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_nano_usd: number;
  priced_events: number;
  latency_ms: number;
  timed_events: number;
}

/** The same sums by UTC day (`day_on`: its midnight); kept by their own triggers. */
export type UsageDailyRollupsTable = Omit<UsageRollupsTable, 'hour_on'> & { day_on: string };

/** A dataset of queries an agent is evaluated on (src/modules/evaluations/). */
export interface EvaluationDatasetsTable {
  id: Id;
  organization_id: number;
  name: string;
  description: Generated<string>;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export interface EvaluationQueriesTable {
  id: Id;
  organization_id: number;
  dataset_id: number;
  question: string;
  expected_answer: string | null;
  /** JSON: document ids (integers) and source names (strings). */
  expected_sources: Generated<JsonText>;
  tags: Generated<JsonText>;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

/** Metric definitions: the built-in ones (organization_id null, builtin 1) and each organization's own. */
export interface EvaluationMetricsTable {
  id: Id;
  organization_id: number | null;
  builtin: Generated<number>;
  kind: string;
  name: string;
  description: Generated<string>;
  parameters: Generated<JsonText>;
  threshold: number | null;
  rubric: string | null;
  llm_configuration_id: number | null;
  created_on: string | null;
  created_by: number | null;
  modified_on: string | null;
  modified_by: number | null;
}

export type EvaluationStatus = 'queued' | 'running' | 'completed' | 'cancelled' | 'budget_exhausted' | 'failed';

export interface EvaluationsTable {
  id: Id;
  organization_id: number;
  name: string;
  agent_id: number;
  history_id: number;
  dataset_id: number | null;
  judge_llm_configuration_id: number | null;
  /** JSON: the metric definitions as they were when the evaluation was created. */
  metrics: JsonText;
  status: EvaluationStatus;
  concurrency: number;
  cost_budget_usd: number | null;
  spent_nano_usd: Generated<number>;
  total_queries: number;
  error: string | null;
  started_on: string | null;
  finished_on: string | null;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export interface EvaluationTagsTable {
  evaluation_id: number;
  organization_id: number;
  tag: string;
}

export type EvaluationResultStatus = 'pending' | 'completed' | 'blocked' | 'failed';

/** One query of an evaluation: a copy of the query, and once answered, the answer and what it cited. */
export interface EvaluationResultsTable {
  id: Id;
  organization_id: number;
  evaluation_id: number;
  query_id: number | null;
  position: number;
  question: string;
  expected_answer: string | null;
  expected_sources: JsonText;
  status: EvaluationResultStatus;
  answer: string | null;
  error: string | null;
  citations: Generated<JsonText>;
  retrieved: Generated<JsonText>;
  model: string | null;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  cost: number | null;
  judge_cost: number | null;
  latency_ms: number | null;
  answered_on: string | null;
}

export type ScoreStatus = 'ok' | 'undetermined' | 'error';

export interface EvaluationScoresTable {
  result_id: number;
  evaluation_id: number;
  metric_id: number;
  status: ScoreStatus;
  score: number | null;
  /** 1 or 0 where the metric has a threshold and a score; null otherwise. */
  passed: number | null;
  reason: string | null;
}

export type SourceSyncStatus = 'never' | 'queued' | 'running' | 'succeeded' | 'failed';

/**
 * The sync columns of every source of documents (connectors, mailboxes): the same names, types and
 * meaning on each table, read and written by the sources engine (src/modules/sources) through one
 * repository. Migration 2026_11_28_0030 gave both tables this shape.
 */
export interface SourceSyncColumns {
  sync_status: Generated<SourceSyncStatus>;
  /** The job whose sync runs (null before the first, or from before this column). */
  sync_job_id: Generated<number | null>;
  /** Bumped at the start of each sync; items carry the sync that last saw them. */
  sync_number: Generated<number>;
  sync_started_on: Generated<string | null>;
  sync_finished_on: Generated<string | null>;
  sync_added: Generated<number>;
  sync_updated: Generated<number>;
  sync_removed: Generated<number>;
  sync_failed: Generated<number>;
  /** JSON: [{ name, reason }] of what the last sync could not bring in (bounded). */
  sync_failures: Generated<JsonText>;
  sync_error_code: Generated<string | null>;
  sync_error: Generated<string | null>;
  /** JSON: where the source's next sync reads from, in the adapter's own terms ('{}': from the start). */
  sync_cursor: Generated<JsonText>;
  /** Minutes between automatic syncs; null: only when asked. */
  schedule_minutes: Generated<number | null>;
  next_sync_on: Generated<string | null>;
}

export interface ConnectorsTable extends SourceSyncColumns {
  id: Id;
  organization_id: number;
  corpus_id: number;
  name: string;
  tenant_id: string;
  client_id: string;
  client_secret_sealed: string;
  client_secret_key_id: string;
  client_secret_hint: string;
  site_id: string | null;
  drive_id: string | null;
  folder_path: string | null;
  created_on: string;
  created_by: number;
  modified_on: string;
  modified_by: number;
}

export interface ConnectorItemsTable {
  connector_id: number;
  item_id: string;
  document_id: number | null;
  etag: string;
  name: string;
  seen_sync: number;
}

export type MailProvider = 'microsoft' | 'google';
export type MailboxAuthorizationStatus = 'active' | 'reauthorization_required';

export interface EmailAuthorizationsTable {
  id: Id;
  organization_id: number;
  user_id: number;
  corpus_id: number;
  provider: MailProvider;
  /** JSON array of folder or label ids. */
  folders: JsonText;
  nonce: string;
  verifier_sealed: string;
  verifier_key_id: string;
  expires_on: string;
  used_on: string | null;
  /** The schedule asked for; schedule_given 0: the mailbox keeps its own. */
  schedule_minutes: Generated<number | null>;
  schedule_given: Generated<number>;
  created_on: string;
}

export interface MailboxesTable extends SourceSyncColumns {
  id: Id;
  organization_id: number;
  corpus_id: number;
  provider: MailProvider;
  address: string;
  /** JSON array of folder or label ids. */
  folders: JsonText;
  refresh_token_sealed: string;
  refresh_token_key_id: string;
  authorization_status: Generated<MailboxAuthorizationStatus>;
  /** Raised by each re-authorization: a sync begun under an older one writes nothing more. */
  generation: Generated<number>;
  created_on: string;
  created_by: number;
  modified_on: string;
}

export interface MailboxItemsTable {
  mailbox_id: number;
  message_id: string;
  part: string;
  folder: string;
  document_id: number | null;
  seen_sync: number;
}

export type ToolImportStatus = 'queued' | 'running' | 'completed' | 'failed';

/** An OpenAPI document imported as API tools by a tool.import job (src/modules/tools/tool-imports.service.ts). */
export interface ToolImportsTable {
  id: Id;
  organization_id: number;
  status: ToolImportStatus;
  source_url: string | null;
  document_key: string | null;
  /** JSON: operations, server_url, name_prefix, overrides, enabled. */
  options: string;
  secret_sealed: string | null;
  secret_key_id: string | null;
  secret_hint: string | null;
  operations_total: number | null;
  operations_done: Generated<number>;
  imported: Generated<number>;
  skipped: Generated<number>;
  error: string | null;
  started_on: string | null;
  finished_on: string | null;
  created_on: string;
  created_by: number;
  modified_on: string;
}

/** One operation an import met: imported (its tool) or skipped (why, and where in the document). */
export interface ToolImportOperationsTable {
  id: Id;
  tool_import_id: number;
  position: number;
  operation: string;
  method: string;
  path: string;
  pointer: string;
  status: 'imported' | 'skipped';
  reason: string | null;
  /** JSON array of { pointer, message }. */
  details: Generated<string>;
  tool_id: number | null;
  tool_name: string | null;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  credentials_epoch: CredentialsEpochTable;
  agents: AgentsTable;
  agent_history: AgentHistoryTable;
  agent_recent: AgentRecentTable;
  agent_stars: AgentStarsTable;
  corpora: CorporaTable;
  corpus_permissions: CorpusPermissionsTable;
  corpus_listing_versions: CorpusListingVersionsTable;
  read_versions: ReadVersionsTable;
  corpus_agents: CorpusAgentsTable;
  documents: DocumentsTable;
  document_tags: DocumentTagsTable;
  document_events: DocumentEventsTable;
  chunks: ChunksTable;
  corpus_search_generations: CorpusSearchGenerationsTable;
  jobs: JobsTable;
  password_tokens: PasswordTokensTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  projects: ProjectsTable;
  project_teams: ProjectTeamsTable;
  project_members: ProjectMembersTable;
  project_recent: ProjectRecentTable;
  notifications: NotificationsTable;
  feature_flags: FeatureFlagsTable;
  organization_configurations: OrganizationConfigurationsTable;
  model_deployments: ModelDeploymentsTable;
  vector_indexes: VectorIndexesTable;
  chunk_vectors: ChunkVectorsTable;
  llm_configurations: LlmConfigurationsTable;
  chat_threads: ChatThreadsTable;
  chat_thread_tags: ChatThreadTagsTable;
  agent_responses: AgentResponsesTable;
  response_tags: ResponseTagsTable;
  response_votes: ResponseVotesTable;
  response_ratings: ResponseRatingsTable;
  response_feedback: ResponseFeedbackTable;
  response_comments: ResponseCommentsTable;
  response_reviews: ResponseReviewsTable;
  tools: ToolsTable;
  tool_imports: ToolImportsTable;
  tool_import_operations: ToolImportOperationsTable;
  guardrails: GuardrailsTable;
  thread_attachments: ThreadAttachmentsTable;
  usage_events: UsageEventsTable;
  usage_rollups: UsageRollupsTable;
  usage_daily_rollups: UsageDailyRollupsTable;
  evaluation_datasets: EvaluationDatasetsTable;
  evaluation_queries: EvaluationQueriesTable;
  evaluation_metrics: EvaluationMetricsTable;
  evaluations: EvaluationsTable;
  evaluation_tags: EvaluationTagsTable;
  evaluation_results: EvaluationResultsTable;
  evaluation_scores: EvaluationScoresTable;
  connectors: ConnectorsTable;
  connector_items: ConnectorItemsTable;
  email_authorizations: EmailAuthorizationsTable;
  mailboxes: MailboxesTable;
  mailbox_items: MailboxItemsTable;
}

export type UserRow = Selectable<UsersTable>;
export type AgentRow = Selectable<AgentsTable>;
export type NewAgentRow = Insertable<AgentsTable>;
export type AgentRowUpdate = Updateable<AgentsTable>;
export type HistoryRow = Selectable<AgentHistoryTable>;
export type DocumentRow = Selectable<DocumentsTable>;
export type JobRow = Selectable<JobsTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type TeamRow = Selectable<TeamsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type ConfigurationRow = Selectable<OrganizationConfigurationsTable>;
export type LlmConfigurationRow = Selectable<LlmConfigurationsTable>;
export type ChatThreadRow = Selectable<ChatThreadsTable>;
export type AgentResponseRow = Selectable<AgentResponsesTable>;
export type AgentResponseChange = Updateable<AgentResponsesTable>;
export type ToolRow = Selectable<ToolsTable>;
export type ToolImportOperationRow = Selectable<ToolImportOperationsTable>;
export type GuardrailRow = Selectable<GuardrailsTable>;
export type ThreadAttachmentRow = Selectable<ThreadAttachmentsTable>;

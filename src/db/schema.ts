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
  created_on: string;
  modified_on: string;
}

export type OrganizationRole = 'owner' | 'admin' | 'member' | 'viewer';

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
  modified_on: string;
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

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  agents: AgentsTable;
  agent_history: AgentHistoryTable;
  agent_recent: AgentRecentTable;
  agent_stars: AgentStarsTable;
}

export type UserRow = Selectable<UsersTable>;
export type AgentRow = Selectable<AgentsTable>;
export type NewAgentRow = Insertable<AgentsTable>;
export type AgentRowUpdate = Updateable<AgentsTable>;
export type HistoryRow = Selectable<AgentHistoryTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

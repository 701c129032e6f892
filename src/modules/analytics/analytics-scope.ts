// What an analytics answer is about: the whole organization, or one agent, corpus, project, team or
// user of it. Events carry the agent, project, team and user they were made for (as they were when
// they were made); a corpus's figures are those of the agents connected to it now, and its own events
// of no agent (the embeddings of its documents). The same scope reads events, or their hourly rollups.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { RollupKey } from './rollup-reads.js';

export const SCOPES = ['overall', 'agent', 'corpus', 'project', 'team', 'user'] as const;
export type ScopeKind = (typeof SCOPES)[number];

export type AnalyticsScope = { kind: 'overall' } | { kind: Exclude<ScopeKind, 'overall'>; id: number };

/** The events (alias e) of the scope; the organization is filtered apart. */
export function eventsOfScope(scope: AnalyticsScope): RawBuilder<SqlBool> {
  switch (scope.kind) {
    case 'overall':
      return sql<SqlBool>`1 = 1`;
    case 'agent':
      return sql<SqlBool>`e.agent_id = ${scope.id}`;
    case 'project':
      return sql<SqlBool>`e.project_id = ${scope.id}`;
    case 'team':
      return sql<SqlBool>`e.team_id = ${scope.id}`;
    case 'user':
      return sql<SqlBool>`e.user_id = ${scope.id}`;
    case 'corpus':
      return sql<SqlBool>`(e.agent_id in (select ca.agent_id from corpus_agents ca where ca.corpus_id = ${scope.id}) or (e.agent_id is null and e.corpus_id = ${scope.id}))`;
  }
}

/**
 * The rollup rows that sum the scope's events: its own dimension's; for a corpus, those of the agents
 * connected to it now (`connectedAgents`) and its own (usage_rollups keeps a corpus's rows for its
 * events of no agent).
 */
export function rollupKeysOfScope(scope: AnalyticsScope, connectedAgents: number[]): RollupKey[] {
  switch (scope.kind) {
    case 'overall':
      return [{ dimension: 'all', id: 0 }];
    case 'corpus':
      return [...connectedAgents.map((id): RollupKey => ({ dimension: 'agent', id })), { dimension: 'corpus', id: scope.id }];
    default:
      return [{ dimension: scope.kind, id: scope.id }];
  }
}

/**
 * The documents (alias d) of the scope: a corpus's own; an agent's, team's or project's are those of
 * the corpora connected to its agents now; a user's, those they added.
 */
export function documentsOfScope(organizationId: number, scope: AnalyticsScope): RawBuilder<SqlBool> {
  const connectedTo = (condition: RawBuilder<unknown>) =>
    sql<SqlBool>`d.corpus_id in (select ca.corpus_id from corpus_agents ca join agents a on a.id = ca.agent_id where a.organization_id = ${organizationId} and ${condition})`;
  switch (scope.kind) {
    case 'overall':
      return sql<SqlBool>`1 = 1`;
    case 'corpus':
      return sql<SqlBool>`d.corpus_id = ${scope.id}`;
    case 'user':
      return sql<SqlBool>`d.created_by = ${scope.id}`;
    case 'agent':
      return connectedTo(sql`a.id = ${scope.id}`);
    case 'team':
      return connectedTo(sql`a.team_id = ${scope.id}`);
    case 'project':
      return connectedTo(sql`a.project_id = ${scope.id}`);
  }
}

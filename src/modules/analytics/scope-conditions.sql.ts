// The conditions in SQL that keep the events or the documents of an analytics scope
// (analytics-scope.ts), for the repositories that read them.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AnalyticsScope } from './analytics-scope.js';

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

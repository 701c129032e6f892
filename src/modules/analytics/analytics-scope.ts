// What an analytics answer is about: the whole organization, or one agent, corpus, project, team or
// user of it. Events carry the agent, project, team and user they were made for (as they were when
// they were made); a corpus's figures are those of the agents connected to it now, and its own events
// of no agent (the embeddings of its documents). The same scope reads events, or their hourly rollups;
// its conditions in SQL are in scope-conditions.sql.ts.
import type { RollupKey } from './rollup-reads.sql.js';

export const SCOPES = ['overall', 'agent', 'corpus', 'project', 'team', 'user'] as const;
export type ScopeKind = (typeof SCOPES)[number];

export type AnalyticsScope = { kind: 'overall' } | { kind: Exclude<ScopeKind, 'overall'>; id: number };

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

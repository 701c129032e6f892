// An organization with a history of usage events for analytics tests: a team and a project, an agent
// in them connected to a corpus, an agent in neither, an owner and a member; events of every kind at
// random instants (answers of both agents, judges, the corpus's embeddings), then changed as events
// are in use: answers ending (status, tokens, cost, latency rewritten), events moved to another time
// and person, events deleted. Repeatable: the same seed gives the same history.
import type { AnalyticsScope } from '../../src/modules/analytics/analytics-scope.js';
import { recordUsage } from '../../src/modules/analytics/usage-events.js';
import type { TestApp } from './app.js';
import { createCorpus } from './corpora.js';
import { createAgent, createOrganization, createUser, type TestUser } from './factories.js';
import { createProject, createTeam } from './people.js';

export interface UsageHistory {
  owner: TestUser;
  member: TestUser;
  /** overall, each agent, the member, the team, the project and the corpus. */
  scopes: AnalyticsScope[];
}

export interface UsageHistoryPlan {
  seed: number;
  events: number;
  /** Events fall in [start, start + spanMs). */
  start: number;
  spanMs: number;
  /** Where the event with this id is moved to (every eleventh event). */
  movedTo: (id: number) => number;
}

/** A repeatable sequence of numbers in [0, 1). */
export function seededRandom(seed: number) {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

export async function recordUsageHistory(t: TestApp, plan: UsageHistoryPlan): Promise<UsageHistory> {
  const organizationId = await createOrganization(t.app);
  const owner = await createUser(t.app, { organizationId, role: 'owner' });
  const member = await createUser(t.app, { organizationId, role: 'member' });
  const team = await createTeam(owner);
  const project = await createProject(owner);
  const teamAgent = await createAgent(owner, { team_id: team.id, project_id: project.id });
  const loneAgent = await createAgent(owner);
  const corpus = await createCorpus(owner);
  const connected = await owner.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: teamAgent.id });
  if (connected.status !== 200) throw new Error(`connecting the corpus: ${connected.status}`);
  const scopes: AnalyticsScope[] = [
    { kind: 'overall' },
    { kind: 'agent', id: teamAgent.id },
    { kind: 'agent', id: loneAgent.id },
    { kind: 'user', id: member.id },
    { kind: 'team', id: team.id },
    { kind: 'project', id: project.id },
    { kind: 'corpus', id: corpus.id },
  ];

  const { repos } = t.app.services.store;
  const random = seededRandom(plan.seed);
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)]!;
  for (let i = 0; i < plan.events; i++) {
    const kindOf = pick(['answer', 'answer', 'judge', 'embedding'] as const);
    const agent = kindOf === 'embedding' ? null : pick([teamAgent.id, loneAgent.id]);
    await recordUsage(repos, {
      kind: kindOf,
      status: kindOf === 'answer' ? pick(['completed', 'failed', 'blocked'] as const) : null,
      organization_id: organizationId,
      agent_id: agent,
      corpus_id: kindOf === 'embedding' ? corpus.id : null,
      user_id: pick([owner.id, member.id]),
      model: 'm',
      prompt_tokens: Math.floor(random() * 1000),
      completion_tokens: Math.floor(random() * 100),
      cost: random() < 0.2 ? null : Math.floor(random() * 1e6) / 1e9,
      latency_ms: kindOf === 'answer' && random() < 0.9 ? Math.floor(random() * 5000) : null,
      occurred_on: new Date(plan.start + Math.floor(random() * plan.spanMs)).toISOString(),
    });
  }
  const db = t.app.database.db;
  const ids = (await db.selectFrom('usage_events').select('id').where('organization_id', '=', organizationId).orderBy('id').execute()).map((row) => row.id);
  for (const id of ids.filter((_, i) => i % 7 === 0)) {
    await db.updateTable('usage_events').set({ status: 'completed', prompt_tokens: 42, cost_nano_usd: null, latency_ms: 1234 }).where('id', '=', id).where('kind', '=', 'answer').execute();
  }
  for (const id of ids.filter((_, i) => i % 11 === 0)) {
    await db.updateTable('usage_events').set({ occurred_on: new Date(plan.movedTo(id)).toISOString(), user_id: member.id }).where('id', '=', id).execute();
  }
  await db.deleteFrom('usage_events').where('id', 'in', ids.filter((_, i) => i % 13 === 0)).execute();
  return { owner, member, scopes };
}

// Analytics of an organization (API.md §8). A request is checked in the order of every route: the
// range (400), then the scope (404 when it is not the organization's, 403 when the caller may not
// see its figures). The figures come from the database as integer counts and sums per point; totals
// are those integers added up here, so a total is the sum of its points to the last unit.
import { nowMs } from '../../clock.js';
import { BadRequest, NotFound } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import { requireTeamRole } from '../agents/agent-access.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { AnalyticsScope } from './analytics-scope.js';
import { analyticsPolicy } from './analytics.policy.js';
import type { ActiveItemView, AnalyticsQueryInput, MostActiveQueryInput, SeriesView } from './analytics.schemas.js';
import type { UsageFigures } from './analytics.repo.js';
import { bucketRange, type BucketedRange } from './time-buckets.js';

/** USD from nano-dollars, kept exact to the nano-dollar. */
const usd = (nano: number) => nano / 1e9;

type Figures = Record<string, number>;

/** Every figure of the rows added up (counts and sums, integers). */
function sumRows<R extends object>(rows: R[]): R {
  const sums: Figures = {};
  for (const row of rows) for (const [key, value] of Object.entries(row)) sums[key] = (sums[key] ?? 0) + Number(value);
  return sums as R;
}

/** The same position of each list of rows, as one row. */
const zipRows = <R extends object>(...lists: object[][]): R[] => lists[0]!.map((_, i) => Object.assign({}, ...lists.map((rows) => rows[i])) as R);

const tokensOf = (row: Pick<UsageFigures, 'prompt_tokens' | 'completion_tokens'>) => ({
  prompt_tokens: Number(row.prompt_tokens),
  completion_tokens: Number(row.completion_tokens),
  total_tokens: Number(row.prompt_tokens) + Number(row.completion_tokens),
});

const queriesOf = (row: UsageFigures) => ({ queries: Number(row.queries), completed: Number(row.completed), blocked: Number(row.blocked), failed: Number(row.failed) });

const meanOf = (sum: number, count: number, digits: number) => (count === 0 ? null : Math.round((sum / count) * 10 ** digits) / 10 ** digits);

export class AnalyticsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: Pick<CorporaService, 'requireCorpus'>,
  ) {}

  async summary(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const { analytics } = this.store.repos;
    const [usage, votes, ratings, documents] = await Promise.all([
      analytics.usage(actor.organizationId, scope, range.buckets),
      analytics.votes(actor.organizationId, scope, range.buckets),
      analytics.ratings(actor.organizationId, scope, range.buckets),
      analytics.documents(actor.organizationId, scope, range.buckets),
    ]);
    // Of the documents, only how many were added (their `failed` is not the questions').
    const added = documents.map((row) => ({ documents: row.documents }));
    const rows = zipRows<UsageFigures & { up: number; down: number; ratings: number; rating_sum: number; documents: number }>(usage, votes, ratings, added);
    const present = (row: (typeof rows)[number]) => ({
      ...queriesOf(row),
      ...tokensOf(row),
      cost: usd(Number(row.cost_nano_usd)),
      up_votes: Number(row.up),
      down_votes: Number(row.down),
      documents: Number(row.documents),
    });
    const all = sumRows(rows);
    return this.series(scope, range, rows, present, {
      averages: { latency_ms: meanOf(all.latency_ms, all.timed_answers, 0), rating: meanOf(all.rating_sum, all.ratings, 2) },
    });
  }

  async cost(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const rows = await this.store.repos.analytics.usage(actor.organizationId, scope, range.buckets);
    return this.series(scope, range, rows, (row) => ({
      cost: usd(Number(row.cost_nano_usd)),
      answer_cost: usd(Number(row.answer_cost_nano_usd)),
      judge_cost: usd(Number(row.judge_cost_nano_usd)),
      embedding_cost: usd(Number(row.embedding_cost_nano_usd)),
      unpriced_calls: Number(row.unpriced_calls),
    }));
  }

  async tokens(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const rows = await this.store.repos.analytics.usage(actor.organizationId, scope, range.buckets);
    return this.series(scope, range, rows, tokensOf);
  }

  async queryCount(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const rows = await this.store.repos.analytics.usage(actor.organizationId, scope, range.buckets);
    return this.series(scope, range, rows, queriesOf);
  }

  async votes(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const { analytics } = this.store.repos;
    const [votes, ratings] = await Promise.all([
      analytics.votes(actor.organizationId, scope, range.buckets),
      analytics.ratings(actor.organizationId, scope, range.buckets),
    ]);
    const rows = zipRows<{ up: number; down: number; ratings: number; rating_sum: number }>(votes, ratings);
    const all = sumRows(rows);
    return this.series(scope, range, rows, (row) => ({ up: Number(row.up), down: Number(row.down), ratings: Number(row.ratings), rating_sum: Number(row.rating_sum) }), {
      averages: { rating: meanOf(all.rating_sum, all.ratings, 2) },
    });
  }

  async documentCount(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const rows = await this.store.repos.analytics.documents(actor.organizationId, scope, range.buckets);
    return this.series(scope, range, rows, (row) => mapNumbers(row));
  }

  async indexingMode(actor: Actor, query: AnalyticsQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const { analytics, vectors } = this.store.repos;
    const vectorTable = (await vectors.findIndex()) !== undefined;
    const rows = await analytics.indexing(actor.organizationId, scope, range.buckets, vectorTable);
    return this.series(scope, range, rows, (row) => mapNumbers(row));
  }

  async mostActive(actor: Actor, query: MostActiveQueryInput) {
    const { scope, range } = await this.prepare(actor, query);
    const { analytics } = this.store.repos;
    const whole = { from: range.from, to: range.to };
    const [usage, ranked] = await Promise.all([
      analytics.usage(actor.organizationId, scope, range.buckets),
      analytics.mostActive(actor.organizationId, scope, query.entity, whole, query.limit),
    ]);
    const names = await analytics.names(
      actor.organizationId,
      query.entity,
      ranked.map((row) => Number(row.id)),
    );
    const items: ActiveItemView[] = ranked.map((row) => {
      const id = Number(row.id);
      const named = names.get(id);
      return {
        id,
        name: named?.name ?? '',
        ...(named?.email === undefined ? {} : { email: named.email }),
        queries: Number(row.queries),
        ...tokensOf(row),
        cost: usd(Number(row.cost_nano_usd)),
      };
    });
    return this.series(scope, range, usage, (row) => ({ queries: Number(row.queries) }), { entity: query.entity, items });
  }

  /** The answer: a point per bucket, and totals summed from the database's integers. */
  private series<R extends object, F extends Figures, Extra extends object = object>(
    scope: AnalyticsScope,
    range: BucketedRange,
    rows: R[],
    present: (row: R) => F,
    extra?: Extra,
  ): SeriesView<F, Extra> {
    return {
      scope: scope.kind,
      scope_id: scope.kind === 'overall' ? null : scope.id,
      from: range.from,
      to: range.to,
      interval: range.interval,
      timezone: range.timezone,
      points: range.buckets.map((bucket, i) => ({ start: bucket.start, ...present(rows[i]!) })),
      totals: present(sumRows(rows)),
      ...(extra ?? ({} as Extra)),
    };
  }

  /** Checks the range, then that the scope is the organization's and the caller may see its figures. */
  private async prepare(actor: Actor, query: AnalyticsQueryInput): Promise<{ scope: AnalyticsScope; range: BucketedRange }> {
    const range = bucketRange(query, nowMs());
    return { scope: await this.authorizeScope(actor, query), range };
  }

  private async authorizeScope(actor: Actor, query: Pick<AnalyticsQueryInput, 'scope' | 'scope_id'>): Promise<AnalyticsScope> {
    const { repos } = this.store;
    const kind = query.scope;
    if (kind === 'overall') {
      if (query.scope_id !== undefined) throw new BadRequest('scope_id names nothing when scope is overall', [{ pointer: '/query/scope_id', message: 'must be left out with scope overall' }]);
      authorize(analyticsPolicy.seesOrganization(actor), 'Only owners and admins see the figures of the whole organization');
      return { kind };
    }
    const id = query.scope_id;
    if (id === undefined) throw new BadRequest(`scope_id is required with scope ${kind}`, [{ pointer: '/query/scope_id', message: `is required with scope ${kind}` }]);
    switch (kind) {
      case 'agent': {
        const agent = await repos.analytics.agentTeam(actor.organizationId, id);
        if (!agent) throw new NotFound('agent', id);
        const teamRole = agent.team_id === null ? null : await repos.teams.roleOf(actor.organizationId, agent.team_id, actor.userId);
        authorize(analyticsPolicy.seesTeam(actor, teamRole), 'Only owners, admins and the leads of its team see the figures of an agent');
        break;
      }
      case 'team':
        authorize(analyticsPolicy.seesTeam(actor, await requireTeamRole(repos, actor, id)), 'Only owners, admins and its leads see the figures of a team');
        break;
      case 'project':
        if (!(await repos.projects.exists(actor.organizationId, id))) throw new NotFound('project', id);
        authorize(analyticsPolicy.seesOrganization(actor), 'Only owners and admins see the figures of a project');
        break;
      case 'user':
        if (!(await repos.users.findInOrganization(actor.organizationId, id))) throw new NotFound('user', id);
        authorize(analyticsPolicy.seesUser(actor, id), 'Only owners and admins see the figures of another user');
        break;
      case 'corpus':
        // 404 unless the caller holds a permission on it; its figures take `manage`.
        await this.corpora.requireCorpus(actor, id, 'manage');
        break;
    }
    return { kind, id };
  }
}

function mapNumbers<R extends object>(row: R): { [K in keyof R]: number } {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as { [K in keyof R]: number };
}

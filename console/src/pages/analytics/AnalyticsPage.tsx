// /analytics: the organization's figures over time (queries, tokens, cost, votes, documents and
// indexing) for the period chosen, for the whole organization or one agent, corpus, project, team or
// user, with the most active agents (users, corpora, projects) ranked. What is shown is in the
// address. Owners and admins see every scope; others are shown their own figures first (the server
// decides what else: a refusal is said on each chart).
import { useMemo } from 'react';
import { useUser } from '../../session/session';
import { atLeast } from '../../session/permissions';
import { PageHeader } from '../../ui/PageHeader';
import { browserTimeZone, queryOf, useAnalyticsView, type AnalyticsView } from './analyticsParams';
import { CHARTS } from './figures';
import { PeriodFilter } from './PeriodFilter';
import { RankingCard } from './RankingCard';
import { ScopeFilter } from './ScopeFilter';
import { SeriesCard } from './SeriesCard';
import { SummaryTiles } from './SummaryTiles';

export default function AnalyticsPage() {
  const user = useUser();
  const timeZone = useMemo(browserTimeZone, []);
  const { view: asked, change } = useAnalyticsView(timeZone);
  const isAdmin = atLeast(user.role, 'admin');
  // Without a scope in the address, someone who may not see the whole organization sees their own figures.
  const view: AnalyticsView = asked.scope.kind === 'overall' && !isAdmin && !asked.explicitOverall ? { ...asked, scope: { kind: 'user', id: user.id } } : asked;
  const query = useMemo(() => queryOf(view, timeZone), [view, timeZone]);

  return (
    <div className="analytics-page">
      <PageHeader
        title="Analytics"
        description={`Figures on the clock of ${timeZone}. ${isAdmin ? '' : 'Owners and admins see the whole organization; team leads their teams; everyone their own figures.'}`}
      />
      <div className="analytics-filters" role="group" aria-label="What the figures show">
        <PeriodFilter view={view} onChange={change} />
        <ScopeFilter scope={view.scope} onChange={(scope) => change({ scope })} />
      </div>
      <SummaryTiles query={query} />
      <div className="chart-grid">
        {CHARTS.map((spec) => (
          <SeriesCard key={spec.route} spec={spec} query={query} />
        ))}
        <RankingCard query={query} ranking={view.ranking} onRanking={(ranking) => change({ ranking })} />
      </div>
    </div>
  );
}

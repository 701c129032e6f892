// The most active agents, users, corpora or projects of the period as ranked bars (most questions
// first), with their table and CSV; what is ranked is chosen on the card and kept in the address.
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SelectField } from '../../ui/SelectField';
import { RANKINGS, type AnalyticsQuery, type Ranking } from './analyticsParams';
import { mostActiveQuery, type MostActiveData } from './analyticsQueries';
import { ChartCard } from './ChartCard';
import { formatCount, formatUsd } from './figures';
import { csvFileName, csvText, downloadCsv } from './figuresCsv';

const RANKING_LABELS: Record<Ranking, string> = { agents: 'Agents', users: 'Users', corpora: 'Corpora', projects: 'Projects' };
const BAR_HEIGHT = 30;

type Item = MostActiveData['items'][number];
const nameOf = (item: Item) => item.name || item.email || `#${item.id} (gone)`;

function describe(data: MostActiveData): string {
  if (data.items.length === 0) return 'No questions in this period.';
  const ranked = data.items.map((item, index) => `${index + 1}. ${nameOf(item)}, ${formatCount(item.queries)}`).join('; ');
  return `Most active ${data.entity} by questions asked: ${ranked}.`;
}

export function RankingCard({ query, ranking, onRanking }: { query: AnalyticsQuery; ranking: Ranking; onRanking: (ranking: Ranking) => void }) {
  const { data, isPending, error } = useQuery(mostActiveQuery(query, ranking));
  const rows = data?.items.map((item) => ({ name: nameOf(item), queries: item.queries })) ?? [];
  const label = RANKING_LABELS[ranking].toLowerCase();
  return (
    <ChartCard
      className="ranking-card"
      title="Most active"
      headline={data === undefined ? undefined : `${label} with the most questions`}
      description={data === undefined ? undefined : describe(data)}
      isPending={isPending}
      error={error}
      isEmpty={data !== undefined && data.items.length === 0}
      emptyText="No questions in this period."
      controls={
        <SelectField
          label="Rank"
          className="ranking-select"
          options={RANKINGS.map((id) => ({ id, label: RANKING_LABELS[id] }))}
          value={ranking}
          onChange={onRanking}
        />
      }
      chart={
        data === undefined ? undefined : (
          <ResponsiveContainer width="100%" height={Math.max(80, rows.length * BAR_HEIGHT + 40)} initialDimension={{ width: 600, height: 200 }}>
            <BarChart data={rows} layout="vertical" accessibilityLayer={false} margin={{ left: 8, right: 16 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
              <YAxis type="category" dataKey="name" width={140} tick={{ fontSize: 12 }} />
              <Tooltip formatter={(value: unknown) => (typeof value === 'number' ? formatCount(value) : String(value))} />
              <Bar dataKey="queries" name="Questions" fill="#3346c9" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )
      }
      table={
        data === undefined
          ? undefined
          : {
              columns: [RANKING_LABELS[ranking], 'Questions', 'Tokens', 'Cost'],
              rows: data.items.map((item) => [nameOf(item), formatCount(item.queries), formatCount(item.total_tokens), formatUsd(item.cost)]),
            }
      }
      onDownload={
        data === undefined
          ? undefined
          : () =>
              downloadCsv(
                csvFileName(`most-active-${data.entity}`, data),
                csvText(
                  ['rank', 'id', 'name', 'email', 'queries', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'cost'],
                  data.items.map((item, index) => [index + 1, item.id, item.name, item.email ?? '', item.queries, item.prompt_tokens, item.completion_tokens, item.total_tokens, item.cost]),
                ),
              )
      }
    />
  );
}

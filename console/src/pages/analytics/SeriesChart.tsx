// A route's points over time, drawn with Recharts: stacked bars (queries by outcome, cost by kind,
// documents by step) or lines (tokens). Drawn at once, without animation: the figures are what matter.
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Figure } from './figures';

export interface ChartRow {
  label: string;
  [figure: string]: number | string;
}

interface SeriesChartProps {
  kind: 'bars' | 'lines';
  rows: ChartRow[];
  figures: Figure[];
  format: (value: number) => string;
}

const HEIGHT = 240;
const tooltipValue = (format: (value: number) => string) => (value: unknown) => (typeof value === 'number' ? format(value) : String(value));

export function SeriesChart({ kind, rows, figures, format }: SeriesChartProps) {
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
      <YAxis tick={{ fontSize: 12 }} width={64} tickFormatter={(value: number) => format(value)} allowDecimals={false} />
      <Tooltip formatter={tooltipValue(format)} />
      <Legend wrapperStyle={{ fontSize: 13 }} />
    </>
  );
  return (
    <ResponsiveContainer width="100%" height={HEIGHT} initialDimension={{ width: 600, height: HEIGHT }}>
      {kind === 'bars' ? (
        <BarChart data={rows} accessibilityLayer={false}>
          {axes}
          {figures.map((figure) => (
            <Bar key={figure.key} dataKey={figure.key} name={figure.label} stackId="points" fill={figure.color} isAnimationActive={false} />
          ))}
        </BarChart>
      ) : (
        <LineChart data={rows} accessibilityLayer={false}>
          {axes}
          {figures.map((figure) => (
            <Line key={figure.key} dataKey={figure.key} name={figure.label} stroke={figure.color} strokeWidth={2} dot={rows.length <= 31} isAnimationActive={false} />
          ))}
        </LineChart>
      )}
    </ResponsiveContainer>
  );
}

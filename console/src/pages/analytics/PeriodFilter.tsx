// The period (a preset or a range of days), and the length of a point.
import { SelectField } from '../../ui/SelectField';
import { INTERVALS, PERIOD_LABELS, PERIODS, type AnalyticsView } from './analyticsParams';
import { RangeForm } from './RangeForm';

const INTERVAL_LABELS = { hour: 'By hour', day: 'By day', week: 'By week', month: 'By month' } as const;

interface PeriodFilterProps {
  view: AnalyticsView;
  onChange: (change: Partial<AnalyticsView>) => void;
}

export function PeriodFilter({ view, onChange }: PeriodFilterProps) {
  return (
    <>
      <SelectField label="Period" options={PERIODS.map((id) => ({ id, label: PERIOD_LABELS[id] }))} value={view.period} onChange={(period) => onChange({ period })} />
      <SelectField label="Points" options={INTERVALS.map((id) => ({ id, label: INTERVAL_LABELS[id] }))} value={view.interval} onChange={(interval) => onChange({ interval })} />
      {view.period === 'custom' && <RangeForm from={view.from} to={view.to} onApply={(from, to) => onChange({ from, to })} />}
    </>
  );
}

// The period (a preset or a range of days), and the length of a point.
import { useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { Button, TextField } from '../../ui/Fields';
import { SelectField } from '../../ui/SelectField';
import { INTERVALS, PERIOD_LABELS, PERIODS, type AnalyticsView } from './analyticsParams';

const INTERVAL_LABELS = { hour: 'By hour', day: 'By day', week: 'By week', month: 'By month' } as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateError = (text: string) => (DATE.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'A date as YYYY-MM-DD');

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

/** The first and last day of a custom range, applied together (a half-typed date draws nothing). */
function RangeForm({ from, to, onApply }: { from: string; to: string; onApply: (from: string, to: string) => void }) {
  const [first, setFirst] = useState(from);
  const [last, setLast] = useState(to);
  useEffect(() => {
    setFirst(from);
    setLast(to);
  }, [from, to]);
  const firstError = dateError(first);
  const lastError = dateError(last);
  const order = firstError === undefined && lastError === undefined && first > last ? 'The first day comes before the last' : undefined;
  return (
    <Form
      className="range-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (firstError === undefined && lastError === undefined && order === undefined) onApply(first, last);
      }}
    >
      <TextField label="First day" value={first} onChange={setFirst} isInvalid={firstError !== undefined || order !== undefined} errorMessage={firstError ?? order} placeholder="YYYY-MM-DD" />
      <TextField label="Last day" value={last} onChange={setLast} isInvalid={lastError !== undefined} errorMessage={lastError} placeholder="YYYY-MM-DD" />
      <Button type="submit">Show range</Button>
    </Form>
  );
}

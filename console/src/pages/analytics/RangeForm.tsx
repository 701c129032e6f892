// A range of days typed as YYYY-MM-DD (first and last, both included), applied together so that a
// half-typed date asks nothing. Optional ends may be left empty (no bound on that side).
import { useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { Button, TextField } from '../../ui/Fields';
import './range-form.css';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateError(text: string, optional: boolean): string | undefined {
  if (optional && text === '') return undefined;
  return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'A date as YYYY-MM-DD';
}

interface RangeFormProps {
  from: string;
  to: string;
  onApply: (from: string, to: string) => void;
  /** Whether an end may be left empty. */
  optional?: boolean;
  submitLabel?: string;
}

export function RangeForm({ from, to, onApply, optional = false, submitLabel = 'Show range' }: RangeFormProps) {
  const [first, setFirst] = useState(from);
  const [last, setLast] = useState(to);
  useEffect(() => {
    setFirst(from);
    setLast(to);
  }, [from, to]);
  const firstError = dateError(first, optional);
  const lastError = dateError(last, optional);
  const bothValid = firstError === undefined && lastError === undefined;
  const order = bothValid && first !== '' && last !== '' && first > last ? 'The first day comes before the last' : undefined;
  return (
    <Form
      className="range-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (bothValid && order === undefined) onApply(first, last);
      }}
    >
      <TextField label="First day" value={first} onChange={setFirst} isInvalid={firstError !== undefined || order !== undefined} errorMessage={firstError ?? order} placeholder="YYYY-MM-DD" />
      <TextField label="Last day" value={last} onChange={setLast} isInvalid={lastError !== undefined} errorMessage={lastError} placeholder="YYYY-MM-DD" />
      <Button type="submit">{submitLabel}</Button>
    </Form>
  );
}

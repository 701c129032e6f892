// "Sync every … minutes": empty for no schedule (only when asked), else 5 to 10080 (a week), as the API takes it.
import { TextField } from '../../ui/Fields';

export const SCHEDULE = { min: 5, max: 10_080 } as const;

/** The minutes typed, null for none, or undefined when what is typed is not a valid schedule. */
export function scheduleOf(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const minutes = Number(text.trim());
  return Number.isInteger(minutes) && minutes >= SCHEDULE.min && minutes <= SCHEDULE.max ? minutes : undefined;
}

export function ScheduleField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      label="Sync every (minutes)"
      description="Optional: leave empty to sync only when you ask."
      inputMode="numeric"
      value={value}
      onChange={onChange}
      validate={(text) => (scheduleOf(text) === undefined ? `A whole number of minutes from ${SCHEDULE.min} to ${SCHEDULE.max}.` : null)}
      validationBehavior="aria"
    />
  );
}

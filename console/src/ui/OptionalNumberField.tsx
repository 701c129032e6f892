// A labelled number that may be left empty (a price not known, a limit not set): React Aria's
// NumberField, which reads and formats numbers in the browser's locale; empty is NaN, passed on as null.
import { FieldError, Input, Label, NumberField, Text } from 'react-aria-components';

interface OptionalNumberFieldProps {
  label: string;
  /** Null while empty. */
  value: number | null;
  onChange: (value: number | null) => void;
  minValue?: number;
  maxValue?: number;
  /** Digits after the decimal point; 0 for whole numbers. */
  fractionDigits?: number;
  description?: string;
  errorMessage?: string;
  isRequired?: boolean;
  isReadOnly?: boolean;
  className?: string;
}

export function OptionalNumberField({ label, value, onChange, minValue, maxValue, fractionDigits = 0, description, errorMessage, isRequired, isReadOnly, className }: OptionalNumberFieldProps) {
  return (
    <NumberField
      className={['field', className].filter(Boolean).join(' ')}
      value={value ?? Number.NaN}
      onChange={(next) => onChange(Number.isNaN(next) ? null : next)}
      minValue={minValue}
      maxValue={maxValue}
      formatOptions={{ maximumFractionDigits: fractionDigits, useGrouping: false }}
      isInvalid={errorMessage !== undefined}
      isRequired={isRequired}
      isReadOnly={isReadOnly}
    >
      <Label>{label}</Label>
      <Input />
      {description !== undefined && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
    </NumberField>
  );
}

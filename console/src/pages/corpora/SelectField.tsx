// A labelled choice among a few options (React Aria's Select: a button and a list box in a popover).
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, type Key } from 'react-aria-components';

export interface Option<K extends string> {
  id: K;
  label: string;
}

interface SelectFieldProps<K extends string> {
  label: string;
  options: readonly Option<K>[];
  value: K;
  onChange: (value: K) => void;
  isDisabled?: boolean;
  className?: string;
  /** A visible label is the rule; hidden only where the context names the field (a table row). */
  hideLabel?: boolean;
}

export function SelectField<K extends string>({ label, options, value, onChange, isDisabled, className, hideLabel = false }: SelectFieldProps<K>) {
  return (
    <Select
      className={['react-aria-Select', 'field', 'corpora-select', className].filter(Boolean).join(' ')}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => {
        const option = options.find((candidate) => candidate.id === key);
        if (option !== undefined) onChange(option.id);
      }}
      isDisabled={isDisabled}
      aria-label={hideLabel ? label : undefined}
    >
      {!hideLabel && <Label>{label}</Label>}
      <Button>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover>
        <ListBox items={options}>{(option) => <ListBoxItem id={option.id}>{option.label}</ListBoxItem>}</ListBox>
      </Popover>
    </Select>
  );
}

// A labelled choice of one option (React Aria's Select: a button and a list box in a popover), each
// option with an optional second line saying what it is (what an LLM configuration runs, a team's role).
import { Button, FieldError, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text, type Key } from 'react-aria-components';

export interface SelectOption<K extends Key> {
  id: K;
  label: string;
  detail?: string;
}

interface SelectFieldProps<K extends Key> {
  label: string;
  options: readonly SelectOption<K>[];
  /** Null while nothing is chosen: the placeholder shows. */
  value: K | null;
  onChange: (value: K) => void;
  description?: string;
  errorMessage?: string;
  placeholder?: string;
  isDisabled?: boolean;
  /** A visible label is the rule; hidden only where the context names the field (a table row). */
  hideLabel?: boolean;
  className?: string;
}

export function SelectField<K extends Key>(props: SelectFieldProps<K>) {
  const { label, options, value, onChange, description, errorMessage, placeholder, isDisabled, hideLabel = false, className } = props;
  return (
    <Select
      className={['react-aria-Select', 'field', className].filter(Boolean).join(' ')}
      value={value}
      onChange={(key: Key | null) => {
        const option = options.find((candidate) => candidate.id === key);
        if (option !== undefined) onChange(option.id);
      }}
      placeholder={placeholder}
      isDisabled={isDisabled}
      isInvalid={errorMessage !== undefined}
      aria-label={hideLabel ? label : undefined}
    >
      {!hideLabel && <Label>{label}</Label>}
      <Button>
        {/* The chosen option's name only: its second line belongs to the list. */}
        <SelectValue>{({ selectedText, defaultChildren }) => (selectedText === '' ? defaultChildren : selectedText)}</SelectValue>
        <span aria-hidden="true">▾</span>
      </Button>
      {description !== undefined && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
      <Popover>
        <ListBox items={options}>
          {(option) => (
            <ListBoxItem id={option.id} textValue={option.label}>
              <Text slot="label">{option.label}</Text>
              {option.detail !== undefined && (
                <Text slot="description" className="choice-detail">
                  {option.detail}
                </Text>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

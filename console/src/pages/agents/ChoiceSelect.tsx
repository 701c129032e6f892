// A labelled choice of one option (React Aria's Select), each option with an optional second line
// (what an LLM configuration runs, a team's role). Keys are strings: "none" beside ids.
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  Text,
  type Key,
} from 'react-aria-components';

export interface Choice {
  id: string;
  label: string;
  detail?: string;
}

interface ChoiceSelectProps {
  label: string;
  choices: readonly Choice[];
  value: string;
  onChange: (value: string) => void;
  description?: string;
  errorMessage?: string;
  isDisabled?: boolean;
  className?: string;
}

export function ChoiceSelect({ label, choices, value, onChange, description, errorMessage, isDisabled, className }: ChoiceSelectProps) {
  return (
    <Select
      className={['react-aria-Select', 'field', className].filter(Boolean).join(' ')}
      value={value}
      onChange={(key: Key | null) => {
        if (key !== null) onChange(String(key));
      }}
      isDisabled={isDisabled}
      isInvalid={errorMessage !== undefined}
    >
      <Label>{label}</Label>
      <Button>
        {/* The chosen option's name only: its second line belongs to the list. */}
        <SelectValue>{({ selectedText, defaultChildren }) => (selectedText === '' ? defaultChildren : selectedText)}</SelectValue>
        <span aria-hidden="true">▾</span>
      </Button>
      {description !== undefined && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
      <Popover>
        <ListBox items={choices}>
          {(choice) => (
            <ListBoxItem id={choice.id} textValue={choice.label}>
              <Text slot="label">{choice.label}</Text>
              {choice.detail !== undefined && (
                <Text slot="description" className="choice-detail">
                  {choice.detail}
                </Text>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

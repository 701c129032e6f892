// A labelled set of checkboxes for choosing several of the organization's things (corpora, tools,
// guardrails), each with an optional second line saying what it is.
import { Checkbox, CheckboxGroup, FieldError, Label, Text } from 'react-aria-components';

export interface ChoiceItem {
  id: number;
  label: string;
  detail?: string;
}

interface ChoiceGroupProps {
  label: string;
  items: ChoiceItem[];
  selected: number[];
  onChange: (selected: number[]) => void;
  description?: string;
  /** Said in place of the checkboxes when there is nothing to choose. */
  emptyText: string;
  errorMessage?: string;
  isReadOnly?: boolean;
}

export function ChoiceGroup({ label, items, selected, onChange, description, emptyText, errorMessage, isReadOnly }: ChoiceGroupProps) {
  return (
    <CheckboxGroup
      className="field choice-group"
      value={selected.map(String)}
      onChange={(values) => onChange(values.map(Number))}
      isReadOnly={isReadOnly}
      isInvalid={errorMessage !== undefined}
    >
      <Label>{label}</Label>
      {description !== undefined && <Text slot="description">{description}</Text>}
      {items.length === 0 ? (
        <p className="muted choice-empty">{emptyText}</p>
      ) : (
        <div className="choice-list">
          {items.map((item) => (
            <Checkbox key={item.id} value={String(item.id)}>
              {({ isSelected }) => (
                <>
                  <span className="box" aria-hidden="true">
                    {isSelected ? '✓' : ''}
                  </span>
                  <span className="choice-text">
                    <span>{item.label}</span>
                    {item.detail !== undefined && <span className="choice-detail">{item.detail}</span>}
                  </span>
                </>
              )}
            </Checkbox>
          ))}
        </div>
      )}
      <FieldError>{errorMessage}</FieldError>
    </CheckboxGroup>
  );
}

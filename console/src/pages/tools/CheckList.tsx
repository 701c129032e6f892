// A labelled set of checkboxes over named things (corpora, an MCP server's tools, a document's
// operations), each with a second line saying what it is; one that cannot be chosen says why.
import { Checkbox, CheckboxGroup, Label, Text } from 'react-aria-components';

export interface CheckItem {
  id: string;
  label: string;
  detail?: string;
  /** Why it cannot be chosen, when it cannot. */
  refusal?: string;
}

interface CheckListProps {
  label: string;
  items: readonly CheckItem[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  description?: string;
}

export function CheckList({ label, items, selected, onChange, description }: CheckListProps) {
  return (
    <CheckboxGroup className="field check-list" value={[...selected]} onChange={onChange}>
      <Label>{label}</Label>
      {description !== undefined && <Text slot="description">{description}</Text>}
      <div className="check-list-items">
        {items.map((item) => (
          <Checkbox key={item.id} value={item.id} isDisabled={item.refusal !== undefined}>
            {({ isSelected }) => (
              <>
                <span className="box" aria-hidden="true">
                  {isSelected ? '✓' : ''}
                </span>
                <span className="check-text">
                  <span>{item.label}</span>
                  {item.detail !== undefined && item.detail !== '' && <span className="choice-detail">{item.detail}</span>}
                  {item.refusal !== undefined && <span className="choice-detail check-refusal">{item.refusal}</span>}
                </span>
              </>
            )}
          </Checkbox>
        ))}
      </div>
    </CheckboxGroup>
  );
}

// A labelled choice of one history record, for either side of a comparison.
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, type Key } from 'react-aria-components';
import { formatWhen, type HistoryRecord } from './history-api';

interface RecordSelectProps {
  label: string;
  records: HistoryRecord[];
  value: number | undefined;
  onChange: (historyId: number) => void;
}

export function recordOptionText(record: HistoryRecord): string {
  return `#${record.history_id} ${record.checkpoint_name} (v${record.version}, ${formatWhen(record.created_on)})`;
}

export function RecordSelect({ label, records, value, onChange }: RecordSelectProps) {
  return (
    <Select
      className="react-aria-Select field"
      value={value ?? null}
      onChange={(key: Key | null) => {
        if (key !== null) onChange(Number(key));
      }}
      placeholder="Choose a record"
    >
      <Label>{label}</Label>
      <Button>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover>
        <ListBox items={records}>
          {(record) => (
            <ListBoxItem id={record.history_id} textValue={recordOptionText(record)}>
              {recordOptionText(record)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

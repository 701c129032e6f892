// The filters the document listing offers (docs/api.md): status, type, tag, and deleted ones.
import { Switch } from 'react-aria-components';
import { TextField } from '../../../ui/Fields';
import { SelectField, type SelectOption } from '../../../ui/SelectField';
import type { DocumentFilter } from '../corpus-api';

type StatusChoice = 'all' | NonNullable<DocumentFilter['status']>;
type TypeChoice = 'all' | 'pdf' | 'docx' | 'html' | 'md' | 'txt' | 'csv' | 'json';

const STATUS_OPTIONS: SelectOption<StatusChoice>[] = [
  { id: 'all', label: 'Any status' },
  { id: 'queued', label: 'Queued' },
  { id: 'extracting', label: 'Extracting text' },
  { id: 'chunking', label: 'Splitting into passages' },
  { id: 'embedding', label: 'Embedding' },
  { id: 'indexed', label: 'Indexed' },
  { id: 'failed', label: 'Failed' },
];

const TYPE_OPTIONS: SelectOption<TypeChoice>[] = [
  { id: 'all', label: 'Any type' },
  { id: 'pdf', label: 'PDF' },
  { id: 'docx', label: 'Word (DOCX)' },
  { id: 'html', label: 'HTML' },
  { id: 'md', label: 'Markdown' },
  { id: 'txt', label: 'Plain text' },
  { id: 'csv', label: 'CSV' },
  { id: 'json', label: 'JSON' },
];

interface DocumentFiltersProps {
  filter: DocumentFilter;
  /** A changed filter starts again at page 1. */
  onChange: (filter: DocumentFilter) => void;
}

export function DocumentFilters({ filter, onChange }: DocumentFiltersProps) {
  const change = (changes: Partial<DocumentFilter>) => onChange({ ...filter, ...changes, page: 1 });
  return (
    <div className="document-filters">
      <SelectField
        label="Status"
        options={STATUS_OPTIONS}
        value={filter.status ?? 'all'}
        onChange={(status) => change({ status: status === 'all' ? undefined : status })}
      />
      <SelectField label="Type" options={TYPE_OPTIONS} value={(filter.type as TypeChoice | undefined) ?? 'all'} onChange={(type) => change({ type: type === 'all' ? undefined : type })} />
      <TextField label="Tag" value={filter.tag ?? ''} onChange={(tag) => change({ tag: tag === '' ? undefined : tag })} />
      <Switch isSelected={filter.includeDeleted} onChange={(includeDeleted) => change({ includeDeleted })} className="react-aria-Switch filter-switch">
        <span className="track" aria-hidden="true" />
        Show deleted
      </Switch>
    </div>
  );
}

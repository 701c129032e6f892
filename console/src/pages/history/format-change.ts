// A changed setting's values as a person reads them: names instead of identifiers, "none" instead of
// an empty list, the organization's default instead of null.
import type { NameLookup } from './reference-names';
import type { FieldChange } from './snapshot-changes';

function nameOf(change: FieldChange, id: unknown, lookup: NameLookup): string {
  if (typeof id !== 'number' || change.reference === undefined) return String(id);
  return lookup(change.reference, id) ?? `#${id}`;
}

export function formatValue(change: FieldChange, value: unknown, lookup: NameLookup): string {
  if (change.field === 'llm_configuration_id') return value === null ? 'the organization’s default' : nameOf(change, value, lookup);
  if (change.field === 'image_key') return value === null || value === undefined ? 'none' : 'an image';
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (change.reference !== undefined) return value.map((id) => nameOf(change, id, lookup)).join(', ');
    return value.map((item) => `“${String(item)}”`).join(', ');
  }
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** "Temperature: 0.7 → 0.2" as plain text (also what a screen reader hears, with "becomes"). */
export function describeChange(change: FieldChange, lookup: NameLookup): { before: string; after: string } {
  let before = formatValue(change, change.before, lookup);
  let after = formatValue(change, change.after, lookup);
  // Two different images both read "an image": say which way it went.
  if (change.field === 'image_key' && before === after) {
    before = 'an image';
    after = 'another image';
  }
  return { before, after };
}

// What differs between two snapshots of an agent's configuration, field by field, in the order a
// person reads the settings page. Fields the server adds later still show up (after the known ones),
// named from their key, so a comparison never hides a difference.
import type { Snapshot } from './history-api';

/** Fields holding identifiers of other resources, shown by name where the console can find it. */
export type ReferenceKind = 'corpus' | 'tool' | 'guardrail' | 'llm_configuration';

export interface FieldChange {
  /** The snapshot's key; nested settings as `retrieval.passages`. */
  field: string;
  label: string;
  before: unknown;
  after: unknown;
  /** Set for identifier fields, whose values are resolved to names when shown. */
  reference?: ReferenceKind;
}

interface FieldInfo {
  label: string;
  reference?: ReferenceKind;
}

const KNOWN_FIELDS: Record<string, FieldInfo> = {
  name: { label: 'Name' },
  description: { label: 'Description' },
  instructions: { label: 'Instructions' },
  llm_configuration_id: { label: 'Model configuration', reference: 'llm_configuration' },
  model_name: { label: 'Model name' },
  temperature: { label: 'Temperature' },
  max_tokens: { label: 'Max tokens' },
  'retrieval.passages': { label: 'Passages per answer' },
  'retrieval.min_score': { label: 'Minimum passage score' },
  corpus_ids: { label: 'Corpora', reference: 'corpus' },
  tool_ids: { label: 'Tools', reference: 'tool' },
  guardrail_ids: { label: 'Guardrails', reference: 'guardrail' },
  conversation_starters: { label: 'Conversation starters' },
  alias: { label: 'Alias' },
  image_key: { label: 'Image' },
  status: { label: 'Status (not restored)' },
};

const FIELD_ORDER = Object.keys(KNOWN_FIELDS);

function labelOf(field: string): string {
  const known = KNOWN_FIELDS[field];
  if (known !== undefined) return known.label;
  const words = field.replace(/_ids?$/, '').replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The snapshot as one level of fields; objects (retrieval) become `retrieval.passages`, …. */
function flatten(snapshot: Snapshot): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const [key, value] of Object.entries(snapshot)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) fields.set(`${key}.${inner}`, innerValue);
    } else {
      fields.set(key, value);
    }
  }
  return fields;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Every field whose value differs from `before` to `after`, known fields first in reading order. */
export function changesBetween(before: Snapshot, after: Snapshot): FieldChange[] {
  const old = flatten(before);
  const current = flatten(after);
  const fields = [...new Set([...old.keys(), ...current.keys()])];
  const rank = (field: string) => {
    const index = FIELD_ORDER.indexOf(field);
    return index === -1 ? FIELD_ORDER.length : index;
  };
  fields.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const changes: FieldChange[] = [];
  for (const field of fields) {
    // A record from before corpora were snapshotted does not know them: not a difference to report.
    if (!old.has(field) || !current.has(field)) continue;
    const valueBefore = old.get(field);
    const valueAfter = current.get(field);
    if (sameValue(valueBefore, valueAfter)) continue;
    const reference = KNOWN_FIELDS[field]?.reference;
    changes.push({ field, label: labelOf(field), before: valueBefore, after: valueAfter, ...(reference === undefined ? {} : { reference }) });
  }
  return changes;
}

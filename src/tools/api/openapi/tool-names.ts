// The names of tools imported from a document: what models accept ([a-zA-Z0-9_-], at most 64
// characters), readable, unique, and the same at every import of the same document. A name that
// must be cut keeps its start and its end — where GitHub's operationIds differ (`…-for-org`,
// `…-for-repo`, `…-organization`) — and puts a short hash of the whole name between them, so that two
// long names that share both ends still differ.
import { createHash } from 'node:crypto';

/** The longest tool name every provider accepts. */
export const TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 6;
/** Of the room left beside the hash, what goes to the end of the name (the rest to its start). */
const TAIL_SHARE = 0.55;

/** Characters models do not accept made `_`, no `_` at either end; cut plainly to `length`. */
export function toolNameOf(text: string, length = TOOL_NAME_LENGTH): string {
  const name = text.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return (name === '' ? 'operation' : name).slice(0, length);
}

/**
 * The name as models accept it, cut in the middle when too long: start, a hash of the whole name,
 * end (`actions_get-fork-pr_1a2b3c_contributor-approval-permissions-organization`).
 */
export function fittedToolName(text: string, length = TOOL_NAME_LENGTH): string {
  const whole = toolNameOf(text, Number.MAX_SAFE_INTEGER);
  if (whole.length <= length) return whole;
  const hash = createHash('sha256').update(whole).digest('hex').slice(0, HASH_LENGTH);
  const room = length - HASH_LENGTH - 2;
  const tailLength = Math.round(room * TAIL_SHARE);
  const head = whole.slice(0, room - tailLength).replace(/[_-]+$/, '');
  const tail = whole.slice(whole.length - tailLength).replace(/^[_-]+/, '');
  return `${head}_${hash}_${tail}`;
}

/** Names of one import, each made unique among those taken (`_2`, `_3` … before the cut). */
export class ImportNames {
  private readonly taken = new Set<string>();

  claim(text: string): string {
    let name = fittedToolName(text);
    for (let n = 2; this.taken.has(name); n++) name = fittedToolName(`${text}_${n}`);
    this.taken.add(name);
    return name;
  }
}

// JSON: every value becomes a "path: value" line (users[0].name: Ada), one block per top-level entry,
// so that a chunk of lines keeps the full path of each value.
import { ExtractionFailed } from '../document.js';
import type { BlockList } from '../block-list.js';

const MAX_DEPTH = 100;
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const name = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
  return path === '' ? name : `${path}.${name}`;
}

function* valueLines(value: unknown, path: string, depth: number): Generator<string> {
  if (depth > MAX_DEPTH) throw new ExtractionFailed('unreadable', `The JSON is nested more than ${MAX_DEPTH} levels deep`);
  const label = path === '' ? '' : `${path}: `;
  if (Array.isArray(value)) {
    if (value.length === 0) yield `${label}[]`;
    for (let i = 0; i < value.length; i++) yield* valueLines(value[i], childPath(path, i), depth + 1);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) yield `${label}{}`;
    for (const [key, item] of entries) yield* valueLines(item, childPath(path, key), depth + 1);
  } else {
    yield `${label}${String(value)}`;
  }
}

export function extractJson(text: string, out: BlockList): { title: undefined } {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    throw new ExtractionFailed('unreadable', 'The JSON is not valid');
  }
  const entries: Array<[string | number, unknown]> = Array.isArray(root)
    ? root.map((item, i): [number, unknown] => [i, item])
    : root !== null && typeof root === 'object'
      ? Object.entries(root)
      : [];
  if (entries.length === 0) out.addLines('table', valueLines(root, '', 0));
  for (const [key, value] of entries) out.addLines('table', valueLines(value, childPath('', key), 1));
  return { title: undefined };
}

// jsdiff's line changes laid out side by side: a removed run facing the added run that replaced it,
// unchanged lines facing themselves, and an empty slot where one side has no line.
import type { ChangeObject } from 'diff';

export interface DiffLine {
  text: string;
  kind: 'same' | 'removed' | 'added';
  /** 1-based line number in its own text. */
  number: number;
}

/** One row of the side-by-side view; a missing side is an empty slot kept for alignment. */
export interface DiffRow {
  before?: DiffLine;
  after?: DiffLine;
}

function linesOf(value: string): string[] {
  const lines = value.split('\n');
  // jsdiff keeps each line's newline, so a chunk ends with an empty piece after the last one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function sideBySideRows(changes: ChangeObject<string>[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let beforeNumber = 0;
  let afterNumber = 0;
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index]!;
    if (!change.added && !change.removed) {
      for (const text of linesOf(change.value)) {
        rows.push({ before: { text, kind: 'same', number: ++beforeNumber }, after: { text, kind: 'same', number: ++afterNumber } });
      }
      continue;
    }
    const removed = change.removed ? linesOf(change.value) : [];
    const next = changes[index + 1];
    // A removal followed by an addition is a replacement: the two runs face each other.
    const replacement = change.removed && next?.added === true;
    const added = change.added ? linesOf(change.value) : replacement ? linesOf(next.value) : [];
    if (replacement) index++;
    for (let line = 0; line < Math.max(removed.length, added.length); line++) {
      const row: DiffRow = {};
      const old = removed[line];
      const fresh = added[line];
      if (old !== undefined) row.before = { text: old, kind: 'removed', number: ++beforeNumber };
      if (fresh !== undefined) row.after = { text: fresh, kind: 'added', number: ++afterNumber };
      rows.push(row);
    }
  }
  return rows;
}

export function countLines(rows: DiffRow[]): { added: number; removed: number } {
  return {
    added: rows.filter((row) => row.after?.kind === 'added').length,
    removed: rows.filter((row) => row.before?.kind === 'removed').length,
  };
}

// The interface changelog is CHANGELOG.md at the root of the project; this turns its
// "## [version] - date" sections into entries, newest first as the file keeps them.
import { readFileSync } from 'node:fs';

export interface ChangelogEntry {
  version: string;
  date: string;
  changes: string[];
}

const HEADING = /^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?/;

export function parseChangelog(markdown: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  for (const line of markdown.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) entries.push({ version: heading[1]!, date: heading[2] ?? '', changes: [] });
    else if (line.startsWith('- ') && entries.length > 0) entries.at(-1)!.changes.push(line.slice(2).trim());
  }
  return entries;
}

export function readChangelog(): ChangelogEntry[] {
  return parseChangelog(readFileSync(new URL('../../../CHANGELOG.md', import.meta.url), 'utf8'));
}

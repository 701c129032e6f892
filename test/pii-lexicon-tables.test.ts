// The PII lexicon's tables as the build writes them: read back from the file, they make the same
// lexicon as the packages do; a file read from other package files (an upgrade since the build) is
// not used.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lexiconOf } from '../src/guardrails/pii/lexicon.js';
import { readBuiltLexiconTables, readLexiconTablesFromPackages, writeLexiconTables } from '../src/guardrails/pii/lexicon-tables.js';

const folder = mkdtempSync(join(tmpdir(), 'lexicon-tables-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the PII lexicon tables written at build time', () => {
  const file = join(folder, 'lexicon-tables.json');
  const fromPackages = readLexiconTablesFromPackages();

  it('read back from the file, make the lexicon the packages make', () => {
    writeLexiconTables(file);
    const built = readBuiltLexiconTables(file);
    expect(built).toBeDefined();
    expect(built!.words.length).toBeGreaterThan(40_000);
    const expected = lexiconOf(fromPackages);
    const actual = lexiconOf(built!);
    for (const word of [...fromPackages.words, 'english', 'new zealand', 'stories', 'hobbits', 'patricia', 'jordan', 'zzqx']) {
      expect(actual.classesOf(word), word).toEqual(expected.classesOf(word));
    }
    expect(actual.classesOf('patricia')?.firstName).toBe(true);
    expect(actual.classesOf('stories')?.common).toBe(true);
    expect([...actual.plainFirstNames].sort()).toEqual([...expected.plainFirstNames].sort());
    expect([...actual.functionWords].sort()).toEqual([...expected.functionWords].sort());
    expect([...actual.organizationEndings].sort()).toEqual([...expected.organizationEndings].sort());
    expect([...actual.placeEndings].sort()).toEqual([...expected.placeEndings].sort());
    expect(actual.longestPhrase).toBe(expected.longestPhrase);
  });

  it('are not used when read from other package files, nor when the file is missing or broken', () => {
    const stale = join(folder, 'stale.json');
    writeFileSync(stale, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), sources: 'another version' }));
    expect(readBuiltLexiconTables(stale)).toBeUndefined();
    expect(readBuiltLexiconTables(join(folder, 'missing.json'))).toBeUndefined();
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{"sources": ');
    expect(readBuiltLexiconTables(broken)).toBeUndefined();
  });
});

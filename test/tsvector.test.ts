// PostgreSQL: the tsvector the server writes for a chunk is, to the byte, the one PostgreSQL made
// from the same fields when it was a generated column (src/db/tsvector.ts), whatever the text:
// prose, identifiers, numbers, other scripts, words repeated past PostgreSQL's limits.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsvectorOf } from '../src/db/tsvector.js';
import { analyze, fieldsOfTerms, type SearchTerms } from '../src/search/analyzer.js';
import type { SearchLanguage } from '../src/search/languages.js';
import { databaseKinds } from './support/databases.js';

const GENERATED = `(setweight(to_tsvector('simple', $1), 'A') || setweight(to_tsvector('simple', $2), 'B') || to_tsvector('simple', $3))::text`;

const fieldsOf = (title: string, heading: string, body: string, language: SearchLanguage = 'english'): SearchTerms => ({
  title: analyze(title, language),
  heading: analyze(heading, language),
  body: analyze(body, language),
});

/** A seeded stream of words from a small vocabulary, so that words repeat as in real text. */
function words(count: number, seed: number, vocabulary: string[]): string {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    out.push(vocabulary[state % vocabulary.length]!);
  }
  return out.join(' ');
}

const VOCABULARY = ['harbour', 'ships', 'os.path.join', 'readFileSync', 'v2', '3.11.2', 'naïve', 'Straße', '東京', 'données', '--force-with-lease', 'x1y2', '007', 'the', 'ﬁne'];

const CASES: [string, SearchTerms][] = [
  ['prose', fieldsOf('Install the server', 'Setup > Linux', 'Download the package, then install it with the package manager.')],
  ['empty title and heading', fieldsOf('', '', 'Only a body, with a body word twice: body.')],
  ['empty body', fieldsOf('A title', 'A heading', '')],
  ['nothing at all', fieldsOf('', '', '')],
  ['the same words in every field', fieldsOf('git commit', 'git commit --amend', 'git commit records changes; git commit --amend rewrites the last commit.')],
  ['identifiers, versions and numbers', fieldsOf('os.path.join', 'API > readFileSync', 'Use os.path.join in Python 3.11.2, readFileSync in Node v20, port 5432, 1e5 rows, 0x1f.')],
  ['other scripts', fieldsOf('Données', '東京 > 大阪', 'Les données sont naïves; 東京の天気; Straße; ﬁne; Ελληνικά κείμενα.', 'french')],
  ['a word past 255 places in one field', fieldsOf('ships', 'ships', Array.from({ length: 300 }, () => 'ships harbour').join(' '))],
  ['a word past 256 places across fields', fieldsOf(Array.from({ length: 200 }, () => 'tide').join(' '), Array.from({ length: 100 }, () => 'tide').join(' '), 'tide tide')],
  ['past the last position (16383)', fieldsOf('long', 'longer', words(17_000, 7, VOCABULARY))],
  ['a heading ending past the last position', fieldsOf('long', words(16_500, 11, VOCABULARY), 'after the heading')],
  ['a varied body', fieldsOf('Varied', 'Mixed > Words', words(3_000, 3, VOCABULARY))],
];

describe.runIf(databaseKinds.includes('postgres'))('the tsvector of a chunk (postgres)', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterAll(() => client?.end());

  it.each(CASES)('%s: the same as to_tsvector made it', async (_, terms) => {
    const fields = fieldsOfTerms(terms);
    const { rows } = await client.query<{ written: string; generated: string }>(
      `select $4::tsvector::text as written, ${GENERATED} as generated`,
      [fields.search_title, fields.search_heading, fields.search_body, tsvectorOf(terms)],
    );
    expect(rows[0]!.written).toBe(rows[0]!.generated);
  });
});

// The analyser that makes search terms for documents and queries alike (src/search/analyzer.ts).
import { describe, expect, it } from 'vitest';
import { analyze, queryTerms, searchTitle } from '../src/search/analyzer.js';
import { countedTerms } from '../src/search/candidates.js';
import { QueryScorer, type CorpusStatistics } from '../src/search/ranking.js';

describe('search analyser', () => {
  it('folds case, accents and compatibility forms, drops stop words, stems', () => {
    expect(analyze('How do I insert a row or update it if it already exists?', 'english')).toEqual(['insert', 'row', 'updat', 'alreadi', 'exist']);
    expect(analyze('CAFÉ Naïve ﬁles Ｆｕｌｌ', 'english')).toEqual(['cafe', 'naiv', 'file', 'full']);
    expect(analyze("don't it's", 'english')).toEqual([]);
  });

  it('keeps the words technical text needs: negations and directions', () => {
    expect(analyze('not null on conflict turn off', 'english')).toEqual(['not', 'null', 'on', 'conflict', 'turn', 'off']);
  });

  it('makes identifiers and versions both whole and in parts', () => {
    expect(analyze('os.path.join', 'english')).toEqual(['os', 'path', 'join', 'ospathjoin']);
    expect(analyze('--force-with-lease', 'english')).toEqual(['forc', 'leas', 'forcewithlease']);
    expect(analyze('readFileSync HTTPServer', 'english')).toEqual(['read', 'file', 'sync', 'readfilesync', 'http', 'server', 'httpserver']);
    expect(analyze('3.11.2', 'english')).toEqual(['3', '11', '2', '3112']);
  });

  it('stems and stops per language; simple does neither', () => {
    expect(analyze('Les informations générales', 'french')).toEqual(['inform', 'general']);
    expect(analyze('Die Häuser und die Gärten', 'german')).toEqual(['haus', 'gart']);
    expect(analyze('The Running dogs', 'simple')).toEqual(['the', 'running', 'dogs']);
  });

  it('finds the same terms in a text whether it is all ASCII or not, and remembers them per language', () => {
    const ascii = 'Rebase the branch: git rebase --onto main feature-2.1 readFileSync';
    const terms = analyze(ascii, 'english');
    // One non-ASCII character sends the text through Unicode's patterns and NFKC; the words are the same.
    expect(analyze(`${ascii} é`, 'english')).toEqual([...terms, 'e']);
    expect(analyze(`é ${ascii}`, 'english')).toEqual(['e', ...terms]);
    // Tokens remembered in one language are not another's terms.
    expect(analyze('Les maisons', 'french')).toEqual(['maison']);
    expect(analyze('Les maisons', 'simple')).toEqual(['les', 'maisons']);
    expect(analyze('Les maisons', 'french')).toEqual(['maison']);
  });

  it('gives only letters and digits, which both databases take as one term each', () => {
    for (const term of analyze('C++ & C# — naïve_façade.v2 /usr/lib ∑ 東京 emoji 🎉 a_b-c:d', 'english')) {
      expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
    }
  });

  it('drops repeated query terms and keeps at most 32', () => {
    expect(queryTerms('install install Installing', 'english')).toEqual(['instal']);
    expect(queryTerms(Array.from({ length: 50 }, (_, i) => `word${i}`).join(' '), 'english')).toHaveLength(32);
  });

  it('titles a document by its file when it has no title of its own', () => {
    expect(searchTitle('  Getting started ', 'a.md')).toBe('Getting started');
    expect(searchTitle(undefined, 'guides/install-linux.md')).toBe('install-linux');
    expect(searchTitle(undefined, 'https://example.com/docs/upsert.html?x=1')).toBe('upsert');
  });
});

describe('query scorer', () => {
  const statistics = (frequencies: Record<string, number>): CorpusStatistics => ({ chunks: 1000, averageLength: 100, documentFrequency: new Map(Object.entries(frequencies)) });
  const chunk = (body: string, title = '', heading = '') => ({ title, heading, body, length: 100 });

  it('scores from 0 to 1: nothing matched is 0, more of the query is more', () => {
    const scorer = new QueryScorer(['insert', 'row'], statistics({ insert: 10, row: 100 }));
    const none = scorer.score(chunk('other words'));
    const one = scorer.score(chunk('insert other'));
    const both = scorer.score(chunk('insert row', 'insert row', 'insert row'));
    expect(none).toBe(0);
    expect(one).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(one);
    expect(both).toBeLessThanOrEqual(1);
  });

  it('weighs a rare term above a common one', () => {
    const scorer = new QueryScorer(['insert', 'row'], statistics({ insert: 10, row: 500 }));
    expect(scorer.score(chunk('insert'))).toBeGreaterThan(scorer.score(chunk('row')));
  });

  it('rewards the query terms side by side over the same terms apart', () => {
    const scorer = new QueryScorer(['insert', 'updat'], statistics({ insert: 10, updat: 10 }));
    const apart = chunk(['insert', ...Array(20).fill('x'), 'updat'].join(' '));
    const together = chunk(['insert', 'updat', ...Array(20).fill('x')].join(' '));
    expect(scorer.score(together)).toBeGreaterThan(scorer.score(apart));
  });

  it('counts whole terms only, at their place among the terms', () => {
    const scorer = new QueryScorer(['row', 'lock'], statistics({ row: 10, lock: 10 }));
    // Terms that hold the query's as a part (arrow, rows, lockfil, unlock) are other terms.
    expect(scorer.score(chunk('arrow rows lockfil unlock'))).toBe(0);
    const adjacent = scorer.score(chunk('arrow row lock unlock'));
    const reversed = scorer.score(chunk('arrow lock row unlock'));
    const apart = scorer.score(chunk('row arrow rows lockfil lock'));
    expect(adjacent).toBeGreaterThan(reversed);
    expect(reversed).toBeGreaterThan(apart);
  });

  it('weighs the title above the heading, the heading above the text', () => {
    const scorer = new QueryScorer(['retent'], statistics({ retent: 10 }));
    const inTitle = scorer.score(chunk('x', 'retent'));
    const inHeading = scorer.score(chunk('x', '', 'retent'));
    const inBody = scorer.score(chunk('retent'));
    expect(inTitle).toBeGreaterThan(inHeading);
    expect(inHeading).toBeGreaterThan(inBody);
  });

  it('scores a lone term the same whatever its count, which search therefore does not ask for', () => {
    const passages = [chunk('retent'), chunk('x', 'retent'), chunk('retent retent x', '', 'retent')];
    const rare = new QueryScorer(['retent'], statistics({ retent: 1 }));
    const common = new QueryScorer(['retent'], statistics({ retent: 999 }));
    const uncounted = new QueryScorer(['retent'], statistics({}));
    for (const passage of passages) {
      expect(common.score(passage)).toBe(rare.score(passage));
      expect(uncounted.score(passage)).toBe(rare.score(passage));
    }
    expect(countedTerms(['retent'])).toEqual([]);
    expect(countedTerms(['retent', 'log'])).toEqual(['retent', 'log']);
  });
});

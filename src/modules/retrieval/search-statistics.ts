// What scoring needs to know of the searched corpora: how many chunks, their mean length, and how
// many hold each term. Always counted within the searched corpora, never across organizations: another
// organization's documents must not change a score (nor let a score tell what they hold). Counts are
// kept for a minute per set of corpora: scores drift a little while documents come and go, and a
// common term is not counted again for every query.
import type { CorpusStatistics } from '../../search/ranking.js';
import type { PassagesRepo } from './passages.repo.js';

const TTL_MS = 60_000;
const MAX_ENTRIES = 20_000;

interface Entry<T> {
  value: T;
  at: number;
}

export class SearchStatistics {
  private readonly sizes = new Map<string, Entry<{ chunks: number; averageLength: number }>>();
  private readonly frequencies = new Map<string, Entry<number>>();

  constructor(private readonly clock: () => number = Date.now) {}

  async of(passages: PassagesRepo, corpusIds: number[], terms: readonly string[]): Promise<CorpusStatistics> {
    const key = [...corpusIds].sort((a, b) => a - b).join(',');
    const size = await this.cached(this.sizes, key, () => passages.corporaSize(corpusIds));
    const counts = await Promise.all(terms.map((term) => this.cached(this.frequencies, `${key}|${term}`, () => passages.documentFrequency(corpusIds, term))));
    return { ...size, documentFrequency: new Map(terms.map((term, index) => [term, counts[index]!])) };
  }

  private async cached<T>(cache: Map<string, Entry<T>>, key: string, count: () => Promise<T>): Promise<T> {
    const entry = cache.get(key);
    if (entry && this.clock() - entry.at < TTL_MS) return entry.value;
    const value = await count();
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { value, at: this.clock() });
    return value;
  }
}

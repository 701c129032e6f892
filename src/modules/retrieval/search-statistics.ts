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
    const size = await this.sizeOf(passages, corpusIds, key);
    const frequencies = new Map<string, number>();
    const missing: string[] = [];
    for (const term of terms) {
      const entry = this.frequencies.get(`${key}|${term}`);
      if (entry && this.fresh(entry)) frequencies.set(term, entry.value);
      else missing.push(term);
    }
    if (missing.length > 0) {
      const counts = await passages.documentFrequencies(corpusIds, missing);
      missing.forEach((term, index) => {
        frequencies.set(term, counts[index]!);
        this.remember(this.frequencies, `${key}|${term}`, counts[index]!);
      });
    }
    return { ...size, documentFrequency: frequencies };
  }

  private async sizeOf(passages: PassagesRepo, corpusIds: number[], key: string) {
    const entry = this.sizes.get(key);
    if (entry && this.fresh(entry)) return entry.value;
    const size = await passages.corporaSize(corpusIds);
    this.remember(this.sizes, key, size);
    return size;
  }

  private fresh(entry: Entry<unknown>): boolean {
    return this.clock() - entry.at < TTL_MS;
  }

  private remember<T>(cache: Map<string, Entry<T>>, key: string, value: T): void {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { value, at: this.clock() });
  }
}

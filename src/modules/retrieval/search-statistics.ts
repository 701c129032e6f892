// What scoring needs to know of the searched corpora: how many chunks, their mean length, and how
// many hold each term. Always counted within the searched corpora, never across organizations: another
// organization's documents must not change a score (nor let a score tell what they hold). Counts are
// kept per set of corpora and their search generations (search-generations.ts), which every
// transaction changing a corpus's chunks raises: a common term is not counted again for every query,
// and a document is searched with counts that include it as soon as it is indexed, in every process.
import { LRUCache } from 'lru-cache';
import type { CorpusStatistics } from '../../search/ranking.js';
import type { PassagesRepo } from './passages.repo.js';

/** Counts kept at most: the least recently used go first (those of past generations are never read again). */
const MAX_ENTRIES = 20_000;

export class SearchStatistics {
  private readonly sizes = new LRUCache<string, { chunks: number; averageLength: number }>({ max: MAX_ENTRIES });
  private readonly frequencies = new LRUCache<string, number>({ max: MAX_ENTRIES });

  /** `generations`: the searched corpora's, read before anything else of them (PassagesRepo.searchState). */
  async of(passages: PassagesRepo, corpusIds: number[], generations: ReadonlyMap<number, number>, terms: readonly string[]): Promise<CorpusStatistics> {
    const key = keyOf(generations);
    const size = await this.sizeOf(passages, corpusIds, key);
    const frequencies = new Map<string, number>();
    const missing: string[] = [];
    for (const term of terms) {
      const count = this.frequencies.get(`${key}|${term}`);
      if (count !== undefined) frequencies.set(term, count);
      else missing.push(term);
    }
    if (missing.length > 0) {
      const counts = await passages.documentFrequencies(corpusIds, missing);
      missing.forEach((term, index) => {
        frequencies.set(term, counts[index]!);
        this.frequencies.set(`${key}|${term}`, counts[index]!);
      });
    }
    return { ...size, documentFrequency: frequencies };
  }

  private async sizeOf(passages: PassagesRepo, corpusIds: number[], key: string) {
    const kept = this.sizes.get(key);
    if (kept) return kept;
    const size = await passages.corporaSize(corpusIds);
    this.sizes.set(key, size);
    return size;
  }
}

/** The corpora with their generations, e.g. `3:12,7:0`: counts kept under it describe the chunks as they are. */
function keyOf(generations: ReadonlyMap<number, number>): string {
  return [...generations]
    .sort(([a], [b]) => a - b)
    .map(([corpusId, generation]) => `${corpusId}:${generation}`)
    .join(',');
}

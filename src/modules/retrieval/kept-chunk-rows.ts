// The chunks' rows a search reads, kept in the process between searches: what scoring reads of each
// candidate (its search terms, length, document's source and length) and the text of those answered.
// A search of the ask suite's 200 documents read 100 candidates' rows in two statements each time,
// half its time in the database; most candidates of one corpus come back query after query.
//
// A chunk's row does not change while it exists: its id is never given again (AUTOINCREMENT on
// SQLite, a sequence on PostgreSQL), its text and place are written once, its document's source and
// type never change, and its search terms (made again when the corpus's language changes) and its
// document's chunk count and deletion change only with the corpus's chunks, which raises the corpus's
// search generation (search-generations.sql.ts). So what scoring reads is kept with the generation
// read before it was read, and used only while the corpus still has that generation: a row read
// after a change, kept under the generation before it, is never used again. The text needs no
// generation: it is the same for as long as the chunk exists.
import { LRUCache } from 'lru-cache';
import type { PassageText, PassagesRepo, ScoringRow } from './passages.repo.js';

/**
 * Characters kept (UTF-16, so twice as many bytes at most), of the scoring rows and of the texts
 * each: about 8,000 chunks of 1,000 characters, a corpus of 800 documents or the busiest part of a
 * larger one, for at most 32 MB of memory in all. The least recently used go first.
 */
const MAX_KEPT_CHARACTERS = 8_000_000;
/** What an entry costs besides its strings: its numbers and the cache's own record. */
const ENTRY_OVERHEAD = 100;

interface KeptScoringRow {
  generation: number;
  row: ScoringRow;
}

const scoringRowSize = ({ row }: KeptScoringRow) => ENTRY_OVERHEAD + row.search_title.length + row.search_heading.length + row.search_body.length + row.source.length + row.type.length;
const textSize = (text: PassageText) => ENTRY_OVERHEAD + text.text.length + (text.heading?.length ?? 0);

export class KeptChunkRows {
  private readonly scoring = new LRUCache<number, KeptScoringRow>({ maxSize: MAX_KEPT_CHARACTERS, sizeCalculation: scoringRowSize });
  private readonly texts = new LRUCache<number, PassageText>({ maxSize: MAX_KEPT_CHARACTERS, sizeCalculation: textSize });

  /**
   * What scoring reads of the chunks with these ids (PassagesRepo.scoringRows), in the order of their
   * ids whether kept or read: the order SQLite answers them in, and a defined one on PostgreSQL;
   * `generations`, of the searched corpora, read before the chunks' ids were.
   */
  async scoringRows(passages: PassagesRepo, chunkIds: readonly number[], generations: ReadonlyMap<number, number>): Promise<ScoringRow[]> {
    const rows: ScoringRow[] = [];
    const missing: number[] = [];
    for (const id of chunkIds) {
      const kept = this.scoring.get(id);
      if (kept !== undefined && kept.generation === generations.get(kept.row.corpus_id)) rows.push(kept.row);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const row of await passages.scoringRows(missing)) {
        const generation = generations.get(row.corpus_id);
        if (generation !== undefined) this.scoring.set(row.id, { generation, row });
        rows.push(row);
      }
    }
    // The order the rows are scored in decides the last bits of a document's evidence (a product).
    return rows.sort((a, b) => a.id - b.id);
  }

  /** The text and place of the chunks with these ids, by id (PassagesRepo.passageTexts). */
  async passageTexts(passages: PassagesRepo, chunkIds: readonly number[]): Promise<Map<number, PassageText>> {
    const texts = new Map<number, PassageText>();
    const missing: number[] = [];
    for (const id of chunkIds) {
      const kept = this.texts.get(id);
      if (kept !== undefined) texts.set(id, kept);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const [id, text] of await passages.passageTexts(missing)) {
        this.texts.set(id, text);
        texts.set(id, text);
      }
    }
    return texts;
  }
}

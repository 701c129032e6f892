// The chunks' rows a search keeps between searches: used while their corpus's search generation is
// the one read before they were, read again once it moved; answered in the order of their ids.
import { describe, expect, it } from 'vitest';
import { KeptChunkRows } from '../src/modules/retrieval/kept-chunk-rows.js';
import type { PassageText, PassagesRepo, ScoringRow } from '../src/modules/retrieval/passages.repo.js';

/** A repository over rows in memory, recording the ids each read asked for. */
function rowsInMemory(rows: ScoringRow[]) {
  const reads: number[][] = [];
  const textReads: number[][] = [];
  const repo = {
    async scoringRows(ids: number[]) {
      reads.push([...ids]);
      // Unordered on purpose: the kept rows answer in the order of their ids whatever the database's.
      return rows.filter((row) => ids.includes(row.id)).reverse();
    },
    async passageTexts(ids: number[]) {
      textReads.push([...ids]);
      return new Map(ids.map((id): [number, PassageText] => [id, { id, position: id, text: `text of ${id}`, page: null, heading: null }]));
    },
  } as unknown as PassagesRepo;
  return { repo, reads, textReads };
}

const chunk = (id: number, corpusId: number, body: string): ScoringRow => ({
  id,
  corpus_id: corpusId,
  document_id: id * 10,
  token_count: 3,
  search_title: '',
  search_heading: '',
  search_body: body,
  source: `doc-${id}.txt`,
  type: 'txt',
  chunk_count: 1,
});

describe('kept chunk rows', () => {
  it('reads only the rows it does not keep for the corpus generation, and answers in the order of the ids', async () => {
    const { repo, reads } = rowsInMemory([chunk(1, 7, 'a'), chunk(2, 7, 'b'), chunk(3, 8, 'c')]);
    const kept = new KeptChunkRows();
    const generations = new Map([
      [7, 4],
      [8, 0],
    ]);
    expect((await kept.scoringRows(repo, [3, 1], generations)).map((row) => row.id)).toEqual([1, 3]);
    expect((await kept.scoringRows(repo, [2, 3, 1], generations)).map((row) => row.id)).toEqual([1, 2, 3]);
    expect(reads).toEqual([[3, 1], [2]]);
  });

  it("reads a corpus's rows again once its generation moved, and keeps the others", async () => {
    const rows = [chunk(1, 7, 'before'), chunk(3, 8, 'c')];
    const { repo, reads } = rowsInMemory(rows);
    const kept = new KeptChunkRows();
    await kept.scoringRows(repo, [1, 3], new Map([[7, 1], [8, 0]]));
    // The corpus was analysed again: its chunk's terms changed, and its generation with them.
    rows[0] = chunk(1, 7, 'after');
    const found = await kept.scoringRows(repo, [1, 3], new Map([[7, 2], [8, 0]]));
    expect(found.map((row) => row.search_body)).toEqual(['after', 'c']);
    expect(reads).toEqual([[1, 3], [1]]);
  });

  it('leaves out a chunk the database no longer has, and keeps nothing of it', async () => {
    const { repo, reads } = rowsInMemory([chunk(1, 7, 'a')]);
    const kept = new KeptChunkRows();
    const generations = new Map([[7, 0]]);
    expect((await kept.scoringRows(repo, [1, 2], generations)).map((row) => row.id)).toEqual([1]);
    expect((await kept.scoringRows(repo, [1, 2], generations)).map((row) => row.id)).toEqual([1]);
    expect(reads).toEqual([[1, 2], [2]]);
  });

  it('keeps the texts of the passages answered', async () => {
    const { repo, textReads } = rowsInMemory([]);
    const kept = new KeptChunkRows();
    expect([...(await kept.passageTexts(repo, [5, 6])).keys()]).toEqual([5, 6]);
    expect((await kept.passageTexts(repo, [6, 9])).get(9)?.text).toBe('text of 9');
    expect(textReads).toEqual([[5, 6], [9]]);
  });
});

// A corpus's search generation (migration 2026_11_28_0029): raised by every transaction that changes
// the corpus's chunks, read by every search, so that statistics a process kept (search-statistics.ts)
// and the chunks' rows it kept (kept-chunk-rows.ts) are used only while the chunks they were read
// from are unchanged, whichever process changed them.
import type { Kysely } from 'kysely';
import { precompiled, precompiledPer } from '../../db/precompiled.js';
import type { DB } from '../../db/schema.js';

/**
 * Raises the generations of the corpora, in the order of their ids: transactions raising several
 * lock their rows in one order, and none waits for another in a cycle. Run at the transaction's end
 * (after its events, whose locks come in the same order): the row stays locked only until the commit.
 */
export async function raiseSearchGenerations(db: Kysely<DB>, corpusIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(corpusIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await db
    .insertInto('corpus_search_generations')
    .values(ids.map((corpus_id) => ({ corpus_id, generation: 1 })))
    .onConflict((conflict) => conflict.column('corpus_id').doUpdateSet((eb) => ({ generation: eb('corpus_search_generations.generation', '+', 1) })))
    .execute();
}

/** What a search reads of the corpora before anything else: their languages and search generations. */
export interface SearchState {
  /** The languages the corpora are analysed in, each once, in the order of their names. */
  languages: string[];
  /** The corpora's generations, by corpus id; 0 for a corpus whose chunks never changed. */
  generations: Map<number, number>;
}

/** Corpora searched at once whose state a statement compiled once reads (an agent has a few); more are read by a statement built each time. */
const PRECOMPILED_CORPORA = 8;

const corporaState = (db: Kysely<DB>, corpusIds: readonly number[]) =>
  db
    .selectFrom('corpora as c')
    .leftJoin('corpus_search_generations as g', 'g.corpus_id', 'c.id')
    .select(['c.id', 'c.language', 'g.generation'])
    .where('c.id', 'in', [...corpusIds])
    .orderBy('c.language');

/** The statement for `count` corpora, compiled once: a search's first read, run at once on SQLite. */
const corporaStateOf = precompiledPer((count: number) => precompiled(count, (db: Kysely<DB>, ...corpusIds: number[]) => corporaState(db, corpusIds)));

/** The corpora's languages and generations, in one statement. */
export async function searchStateOf(db: Kysely<DB>, corpusIds: readonly number[]): Promise<SearchState> {
  const generations = new Map(corpusIds.map((id) => [id, 0]));
  if (corpusIds.length === 0) return { languages: [], generations };
  const rows = corpusIds.length <= PRECOMPILED_CORPORA ? await corporaStateOf(corpusIds.length)(db, ...corpusIds) : await corporaState(db, corpusIds).execute();
  for (const row of rows) generations.set(Number(row.id), Number(row.generation ?? 0));
  return { languages: [...new Set(rows.map((row) => row.language))], generations };
}

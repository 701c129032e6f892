// A corpus's search generation (migration 2026_11_28_0029): raised by every transaction that changes
// the corpus's chunks, read by every search, so that statistics a process kept (search-statistics.ts)
// are used only while the chunks they were counted from are unchanged, whichever process changed them.
import type { Kysely } from 'kysely';
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

/** The corpora's generations, by corpus id; 0 for a corpus whose chunks never changed. */
export async function searchGenerationsOf(db: Kysely<DB>, corpusIds: readonly number[]): Promise<Map<number, number>> {
  const generations = new Map(corpusIds.map((id) => [id, 0]));
  if (corpusIds.length === 0) return generations;
  const rows = await db.selectFrom('corpus_search_generations').select(['corpus_id', 'generation']).where('corpus_id', 'in', [...corpusIds]).execute();
  for (const row of rows) generations.set(Number(row.corpus_id), Number(row.generation));
  return generations;
}

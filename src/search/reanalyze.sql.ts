// Recomputes the search terms of stored chunks: when the search columns are first added (existing
// chunks), and when a corpus's language changes. In batches by id, so that memory stays flat and
// each batch is one short transaction's worth of writes.
import { sql, type Kysely } from 'kysely';
import { fieldsOfTerms, searchTerms, searchTitle, type SearchFields, type SearchTerms } from './analyzer.js';
import { storedSearchLanguage } from './languages.js';

const BATCH = 500;

interface StoredChunk {
  id: number;
  text: string;
  heading: string | null;
  source: string;
  title: string | null;
  language: string;
}

/**
 * Reanalyses the chunks of one corpus, or of every corpus; answers how many. `columnsOf` makes the
 * columns written from the terms: the fields alone by default (as the migrations that first wrote
 * them), the database's search columns for a corpus's language change (FullTextIndex.searchColumns).
 */
export async function reanalyzeChunks(db: Kysely<any>, corpusId?: number, columnsOf: (terms: SearchTerms) => SearchFields = fieldsOfTerms): Promise<number> {
  let after = 0;
  let done = 0;
  for (;;) {
    const corpusFilter = corpusId === undefined ? sql`` : sql`and c.corpus_id = ${corpusId}`;
    const { rows } = await sql<StoredChunk>`
      select c.id, c.text, c.heading, d.source, d.title, co.language
      from chunks c join documents d on d.id = c.document_id join corpora co on co.id = c.corpus_id
      where c.id > ${after} ${corpusFilter}
      order by c.id
      limit ${BATCH}`.execute(db);
    if (rows.length === 0) return done;
    for (const row of rows) {
      const terms = searchTerms({ title: searchTitle(row.title ?? undefined, row.source), heading: row.heading, text: row.text }, storedSearchLanguage(row.language));
      await db.updateTable('chunks').set(columnsOf(terms)).where('id', '=', row.id).execute();
    }
    after = Number(rows[rows.length - 1]!.id);
    done += rows.length;
  }
}

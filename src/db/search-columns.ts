// The columns a chunk's row is searched by, made from its terms: the fields on both databases, and
// on PostgreSQL the tsvector too (src/db/full-text.ts). Pure, without Kysely, so that the extraction
// threads make them beside the event loop (src/ingest/prepare.ts).
import { fieldsOfTerms, type SearchFields, type SearchTerms } from '../search/analyzer.js';
import { tsvectorOf } from './tsvector.js';

/** A chunk's search fields, and its tsvector on PostgreSQL (SQLite's FTS5 index is kept by triggers). */
export type ChunkSearchColumns = SearchFields & { search?: string };

/** Which columns a database keeps: the fields alone (SQLite), or with the tsvector (PostgreSQL). */
export type SearchColumnsKind = 'fields' | 'fields-and-tsvector';

export function searchColumnsOf(kind: SearchColumnsKind, terms: SearchTerms): ChunkSearchColumns {
  return kind === 'fields' ? fieldsOfTerms(terms) : { ...fieldsOfTerms(terms), search: tsvectorOf(terms) };
}

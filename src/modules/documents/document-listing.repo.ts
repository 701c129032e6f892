// The listings of a corpus's documents as the database writes them (src/db/json-text.ts): the legacy
// listing (API.md §2.2) and the pages of GET /api/v2/corpora/{id}/documents, each batch or page as
// its elements' JSON joined, so that listing a corpus costs the server one string, not a row object,
// a presented object and its serialisation for each document. Each element's JSON is generated
// (src/db/json-projection.ts) from the same fields as its presenter and its schema
// (legacyDocumentFields and documentFields); test/document-listing-json.test.ts checks the bytes on
// both databases.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import { jsonObjectOf, type ColumnExpression } from '../../db/json-projection.js';
import { precompiled } from '../../db/precompiled.js';
import type { DB, DocumentStep } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';
import { rowLimit } from '../../pagination.js';
import { documentFields, legacyDocumentFields } from './documents.schemas.js';
import type { DocumentWithUsers } from './document-with-users.js';

export interface DocumentFilter {
  step?: DocumentStep | undefined;
  isFailed?: boolean | undefined;
  tag?: string | undefined;
  type?: string | undefined;
  includeDeleted?: boolean | undefined;
}

/** Where a document is: every query names the organization as well as the corpus. */
export interface CorpusScope {
  organizationId: number;
  corpusId: number;
}

/** A batch of the listing: its elements' JSON joined by commas (null when empty), and the last id. */
export interface ListingBatch {
  count: number;
  last_id: number | null;
  elements: string | null;
}

/** Who made and changed a document, as a DocumentWithUsers row names them. */
export const USER_COLUMNS = [
  'creator.email as created_by_email',
  'creator.first_name as created_by_first_name',
  'creator.last_name as created_by_last_name',
  'modifier.email as modified_by_email',
] as const;

const USER_COLUMN_SOURCES = new Map(USER_COLUMNS.map((column) => column.split(' as ').reverse() as [string, string]));

/** A column of a DocumentWithUsers row in the query of documentsWithUsers: the document's own, or its users'. */
const documentColumn: ColumnExpression<DocumentWithUsers> = (column) => sql.ref(USER_COLUMN_SOURCES.get(column) ?? `d.${column}`);

function documentsWithUsers(db: Kysely<DB>, scope: CorpusScope) {
  return db
    .selectFrom('documents as d')
    .innerJoin('users as creator', 'creator.id', 'd.created_by')
    .innerJoin('users as modifier', 'modifier.id', 'd.modified_by')
    .where('d.organization_id', '=', scope.organizationId)
    .where('d.corpus_id', '=', scope.corpusId);
}

type DocumentsQuery = ReturnType<typeof documentsWithUsers>;

/** The filters of the latest generation's listing (step, failure, type, tag, deleted documents). */
export function filteredDocuments(documents: DocumentsQuery, filter: DocumentFilter): DocumentsQuery {
  let query = documents;
  if (!filter.includeDeleted) query = query.where('d.deleted_on', 'is', null);
  if (filter.step) query = query.where('d.step', '=', filter.step);
  if (filter.isFailed !== undefined) query = query.where('d.failed_on', filter.isFailed ? 'is not' : 'is', null);
  if (filter.type) query = query.where('d.type', '=', filter.type);
  const tag = filter.tag;
  if (tag) query = query.where((eb) => eb.exists(eb.selectFrom('document_tags as t').select('t.tag').whereRef('t.document_id', '=', 'd.id').where('t.tag', '=', tag)));
  return query;
}

function listingElements(db: Kysely<DB>, dialect: Dialect, includeDeleted: boolean, scope: CorpusScope, afterId: number, limit: number) {
  const { json } = dialect;
  return documentsWithUsers(db, scope)
    .select(['d.id', json.text(jsonObjectOf(legacyDocumentFields, json, documentColumn)).as('json')])
    .where('d.id', '>', afterId)
    .$if(!includeDeleted, (query) => query.where('d.deleted_on', 'is', null))
    .orderBy('d.id', 'asc')
    .limit(limit);
}

/** The batch's elements joined in the database: one string to hand on, not one a document. */
function listingBatchQuery(db: Kysely<DB>, dialect: Dialect, includeDeleted: boolean, scope: CorpusScope, afterId: number, limit: number) {
  return db
    .selectFrom(listingElements(db, dialect, includeDeleted, scope, afterId, limit).as('batch'))
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.max('batch.id').as('last_id'),
      dialect.json.joined(eb.ref('batch.json'), eb.ref('batch.id')).as('elements'),
    ]);
}

/** Compiled once per database and kind of listing (src/db/precompiled.ts). */
const batchQueries = new Map<string, (db: Kysely<DB>, organizationId: number, corpusId: number, afterId: number, limit: number) => Promise<ListingBatch[]>>();

function batchQuery(dialect: Dialect, includeDeleted: boolean) {
  const key = `${dialect.name} ${includeDeleted}`;
  let query = batchQueries.get(key);
  if (!query) {
    query = precompiled(4, (db: Kysely<DB>, organizationId: number, corpusId: number, afterId: number, limit: number) =>
      listingBatchQuery(db, dialect, includeDeleted, { organizationId, corpusId }, afterId, limit),
    );
    batchQueries.set(key, query);
  }
  return query;
}

/** A page of the latest generation's listing: the items' JSON joined (null when none), and the list's total. */
export interface DocumentPageJson {
  items: string | null;
  total: number;
}

/** The elements of DocumentSchema (documentFields), newest first, filtered, with the whole list's count. */
function pageElements(db: Kysely<DB>, dialect: Dialect, scope: CorpusScope, filter: DocumentFilter, window: ListWindow) {
  const { json } = dialect;
  return filteredDocuments(documentsWithUsers(db, scope), filter)
    .select(['d.id', json.text(jsonObjectOf(documentFields, json, documentColumn)).as('json'), sql<number>`count(*) over ()`.as('total')])
    .orderBy('d.id', 'desc')
    .limit(rowLimit(window))
    .offset(window.offset);
}

export class DocumentListingRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** A batch of the corpus's documents after a given id, in id order, as the listing's elements. */
  async jsonBatch(scope: CorpusScope, afterId: number, limit: number, includeDeleted: boolean): Promise<ListingBatch> {
    const [batch] = await batchQuery(this.dialect, includeDeleted)(this.db, scope.organizationId, scope.corpusId, afterId, limit);
    return { count: Number(batch!.count), last_id: batch!.last_id, elements: batch!.elements };
  }

  /** A page of the corpus's documents (GET /api/v2/corpora/{id}/documents), newest first, as JSON. */
  async jsonPage(scope: CorpusScope, filter: DocumentFilter, window: ListWindow): Promise<DocumentPageJson> {
    const page = pageElements(this.db, this.dialect, scope, filter, window).as('page');
    const row = await this.db
      .selectFrom(page)
      .select((eb) => [eb.fn.max('page.total').as('total'), this.dialect.json.joined(eb.ref('page.json'), sql`${eb.ref('page.id')} desc`).as('items')])
      .executeTakeFirstOrThrow();
    if (row.items !== null) return { items: row.items, total: Number(row.total) };
    // A page past the end has no row to carry the count.
    const { total } = await pageElements(this.db, this.dialect, scope, filter, { limit: undefined, offset: 0 })
      .clearSelect()
      .clearOrderBy()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return { items: null, total: Number(total) };
  }
}

// The listings of a corpus's documents as the database writes them (src/db/json-text.ts): the legacy
// listing (API.md §2.2) and the pages of GET /api/v2/corpora/{id}/documents, each batch or page as
// its elements' JSON joined, so that listing a corpus costs the server one string, not a row object,
// a presented object and its serialisation for each document. The members are those of
// presentLegacyDocument and presentDocument, in the order of their schemas;
// test/document-listing-json.test.ts checks that both write the same bytes on both databases.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { JsonMember } from '../../db/json-text.js';
import { precompiled } from '../../db/precompiled.js';
import type { DB, DocumentStep } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';
import { rowLimit } from '../../pagination.js';

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

type DocumentsWithUsers = ExpressionBuilder<DB & { d: DB['documents']; creator: DB['users']; modifier: DB['users'] }, 'd' | 'creator' | 'modifier'>;

/** As originalFilePath (document.presenter.ts) for a document that was not fetched from a URL. */
const accessUrl = ({ ref }: DocumentsWithUsers) =>
  sql<string>`coalesce(${ref('d.access_url')}, '/api/v2/corpora/' || ${ref('d.corpus_id')} || '/documents/' || ${ref('d.id')} || '/file')`;

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
    .select((eb) => {
      const ref = eb.ref;
      const members: JsonMember[] = [
        ['id', ref('d.id')],
        [
          'user',
          json.object([
            ['id', ref('d.created_by')],
            ['email', ref('creator.email')],
            ['first_name', ref('creator.first_name')],
            ['last_name', ref('creator.last_name')],
          ]),
        ],
        ['created_by', ref('creator.email')],
        ['created_on', json.timestamp(ref('d.created_on'))],
        ['modified_by', ref('modifier.email')],
        ['modified_on', json.timestamp(ref('d.modified_on'))],
        ['type', ref('d.type')],
        ['source', ref('d.source')],
        ['access_url', accessUrl(eb)],
        ['text', ref('d.text')],
        ['tags', json.parse(ref('d.tags'))],
        ['is_deleted', json.boolean(eb('d.deleted_on', 'is not', null))],
        ['upload_from', ref('d.upload_from')],
        ['step', ref('d.step')],
        ['is_failed', json.boolean(eb('d.failed_on', 'is not', null))],
        ['corpus', ref('d.corpus_id')],
      ];
      return ['d.id', json.text(json.object(members)).as('json')];
    })
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

/** The elements of DocumentSchema (presentDocument), newest first, filtered, with the whole list's count. */
function pageElements(db: Kysely<DB>, dialect: Dialect, scope: CorpusScope, filter: DocumentFilter, window: ListWindow) {
  const { json } = dialect;
  return filteredDocuments(documentsWithUsers(db, scope), filter)
    .select((eb) => {
      const ref = eb.ref;
      const members: JsonMember[] = [
        ['id', ref('d.id')],
        ['corpus_id', ref('d.corpus_id')],
        ['type', ref('d.type')],
        ['source', ref('d.source')],
        ['access_url', accessUrl(eb)],
        ['upload_from', ref('d.upload_from')],
        ['step', ref('d.step')],
        ['is_failed', json.boolean(eb('d.failed_on', 'is not', null))],
        ['error', ref('d.error')],
        ['is_deleted', json.boolean(eb('d.deleted_on', 'is not', null))],
        ['tags', json.parse(ref('d.tags'))],
        ['annotations', ref('d.annotations')],
        ['size_bytes', ref('d.size_bytes')],
        ['content_hash', ref('d.content_hash')],
        ['chunk_count', ref('d.chunk_count')],
        ['step_timings', json.parse(ref('d.step_timings'))],
        ['indexed_on', json.timestamp(ref('d.indexed_on'))],
        ['created_on', json.timestamp(ref('d.created_on'))],
        ['created_by', ref('creator.email')],
        ['modified_on', json.timestamp(ref('d.modified_on'))],
        ['modified_by', ref('modifier.email')],
      ];
      return ['d.id', json.text(json.object(members)).as('json'), sql<number>`count(*) over ()`.as('total')];
    })
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

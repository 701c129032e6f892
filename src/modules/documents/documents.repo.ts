import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, DocumentStep, DocumentsTable } from '../../db/schema.js';
import { offsetOf, type PageRequest } from '../../pagination.js';

export interface DocumentFilter {
  step?: DocumentStep | undefined;
  isFailed?: boolean | undefined;
  tag?: string | undefined;
  type?: string | undefined;
  includeDeleted?: boolean | undefined;
}

export class DocumentsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private withUsers(corpusId: number) {
    return this.db
      .selectFrom('documents as d')
      .innerJoin('users as creator', 'creator.id', 'd.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'd.modified_by')
      .where('d.corpus_id', '=', corpusId);
  }

  private static readonly USER_COLUMNS = [
    'creator.email as created_by_email',
    'creator.first_name as created_by_first_name',
    'creator.last_name as created_by_last_name',
    'modifier.email as modified_by_email',
  ] as const;

  find(corpusId: number, documentId: number) {
    return this.withUsers(corpusId).selectAll('d').select(DocumentsRepo.USER_COLUMNS).where('d.id', '=', documentId).executeTakeFirst();
  }

  async list(corpusId: number, filter: DocumentFilter, page: PageRequest) {
    let query = this.withUsers(corpusId);
    if (!filter.includeDeleted) query = query.where('d.deleted_on', 'is', null);
    if (filter.step) query = query.where('d.step', '=', filter.step);
    if (filter.isFailed !== undefined) query = query.where('d.failed_on', filter.isFailed ? 'is not' : 'is', null);
    if (filter.type) query = query.where('d.type', '=', filter.type);
    const tag = filter.tag;
    if (tag) query = query.where((eb) => eb.exists(eb.selectFrom('document_tags as t').select('t.tag').whereRef('t.document_id', '=', 'd.id').where('t.tag', '=', tag)));
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll('d')
      .select(DocumentsRepo.USER_COLUMNS)
      .orderBy('d.id', 'desc')
      .limit(page.page_size)
      .offset(offsetOf(page))
      .execute();
    return { rows, total: Number(total) };
  }

  /** The corpus of a document of the organization, for routes that name the document alone. */
  async corpusOf(organizationId: number, documentId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('documents').select('corpus_id').where('organization_id', '=', organizationId).where('id', '=', documentId).executeTakeFirst();
    return row?.corpus_id;
  }

  /** A document as the pipeline reads it, whatever its corpus. */
  findForProcessing(documentId: number) {
    return this.db.selectFrom('documents').selectAll().where('id', '=', documentId).executeTakeFirst();
  }

  /** Updates a document unless it was deleted meanwhile; false when it was. */
  async updateIfPresent(documentId: number, fields: Updateable<DocumentsTable>): Promise<boolean> {
    const result = await this.db.updateTable('documents').set(fields).where('id', '=', documentId).where('deleted_on', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Moves a document that is not deleted from one step to another; false when it was not at that step. */
  async moveStep(documentId: number, from: DocumentStep, to: DocumentStep, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('documents')
      .set({ step: to, modified_on: at })
      .where('id', '=', documentId)
      .where('step', '=', from)
      .where('deleted_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertChunks(chunks: Insertable<DB['chunks']>[]): Promise<void> {
    // Bounded batches keep each statement well under SQLite's limit on bound parameters.
    for (let start = 0; start < chunks.length; start += 500) {
      await this.db.insertInto('chunks').values(chunks.slice(start, start + 500)).execute();
    }
  }

  /** A batch of the corpus's documents after a given id, in id order: the legacy listing streams these. */
  listingBatch(corpusId: number, afterId: number, limit: number, includeDeleted: boolean) {
    let query = this.withUsers(corpusId).where('d.id', '>', afterId);
    if (!includeDeleted) query = query.where('d.deleted_on', 'is', null);
    return query
      .select([
        'd.id',
        'd.created_by',
        'd.created_on',
        'd.modified_on',
        'd.type',
        'd.source',
        'd.access_url',
        'd.text',
        'd.tags',
        'd.deleted_on',
        'd.upload_from',
        'd.step',
        'd.failed_on',
        'd.corpus_id',
        ...DocumentsRepo.USER_COLUMNS,
      ])
      .orderBy('d.id', 'asc')
      .limit(limit)
      .execute();
  }

  /** The id of the document at a 0-based position of the corpus's id order. */
  async idAtOffset(corpusId: number, offset: number, includeDeleted: boolean): Promise<number | undefined> {
    let query = this.db.selectFrom('documents').select('id').where('corpus_id', '=', corpusId);
    if (!includeDeleted) query = query.where('deleted_on', 'is', null);
    const row = await query.orderBy('id').limit(1).offset(offset).executeTakeFirst();
    return row?.id;
  }

  async countForListing(corpusId: number, includeDeleted: boolean): Promise<number> {
    let query = this.db.selectFrom('documents').where('corpus_id', '=', corpusId);
    if (!includeDeleted) query = query.where('deleted_on', 'is', null);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return Number(total);
  }

  /** Documents of the corpus (not deleted) holding any of the given content hashes. */
  findByHashes(corpusId: number, hashes: string[]) {
    if (hashes.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('documents')
      .select(['id', 'source', 'content_hash', 'step', 'failed_on'])
      .where('corpus_id', '=', corpusId)
      .where('deleted_on', 'is', null)
      .where('content_hash', 'in', hashes)
      .orderBy('id')
      .execute();
  }

  /** Documents of the corpus (not deleted) with any of the given sources (file names). */
  findBySources(corpusId: number, sources: string[]) {
    if (sources.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('documents')
      .select(['id', 'source', 'content_hash', 'step', 'failed_on'])
      .where('corpus_id', '=', corpusId)
      .where('deleted_on', 'is', null)
      .where('source', 'in', sources)
      .orderBy('id')
      .execute();
  }

  insert(document: Insertable<DocumentsTable>) {
    return this.db.insertInto('documents').values(document).returning(['id', 'corpus_id', 'organization_id', 'step']).executeTakeFirstOrThrow();
  }

  async update(documentId: number, fields: Updateable<DocumentsTable>): Promise<void> {
    await this.db.updateTable('documents').set(fields).where('id', '=', documentId).execute();
  }

  async replaceTags(documentId: number, tags: string[]): Promise<void> {
    await this.db.deleteFrom('document_tags').where('document_id', '=', documentId).execute();
    if (tags.length) await this.db.insertInto('document_tags').values(tags.map((tag) => ({ document_id: documentId, tag }))).execute();
  }

  async deleteChunks(documentId: number): Promise<void> {
    await this.db.deleteFrom('chunks').where('document_id', '=', documentId).execute();
  }

  async fileKeysOfCorpus(corpusId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('documents').select('file_key').where('corpus_id', '=', corpusId).where('file_key', 'is not', null).execute();
    return rows.map((row) => row.file_key!);
  }

  async appendEvent(event: { corpus_id: number; document_id: number; step: DocumentStep; is_failed: number; error: string | null; created_on: string }) {
    await this.db.insertInto('document_events').values(event).execute();
  }

  eventsAfter(corpusId: number, afterId: number, limit: number) {
    return this.db
      .selectFrom('document_events')
      .selectAll()
      .where('corpus_id', '=', corpusId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async lastEventId(corpusId: number): Promise<number> {
    const row = await this.db
      .selectFrom('document_events')
      .select((eb) => eb.fn.max('id').as('last'))
      .where('corpus_id', '=', corpusId)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }
}

export type DocumentWithUsers = NonNullable<Awaited<ReturnType<DocumentsRepo['find']>>>;
export type ListingRow = Awaited<ReturnType<DocumentsRepo['listingBatch']>>[number];

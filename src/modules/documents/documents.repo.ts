import type { Insertable, Kysely } from 'kysely';
import type { AtCommit } from '../../db/at-commit.js';
import type { Dialect } from '../../db/dialect.js';
import { notifyInProcess } from '../../db/notices.js';
import type { DB, DocumentEventsTable, DocumentStep, DocumentsTable } from '../../db/schema.js';
import { selectSlice } from '../../db/list-slice.js';
import { filteredDocuments, USER_COLUMNS, type CorpusScope, type DocumentFilter } from './document-listing.repo.js';
import { CHUNKS_PER_STATEMENT, chunksOfDocument, DOCUMENT_EVENTS_CHANNEL, documentToProcess, insertChunkRows, insertChunkRowsWithVectors, insertEvents, insertEventsInCommitOrder, PRECOMPILED_EVENTS, updateOfColumns, updateOfColumnsReadingLanguage, type DocumentChange, type DocumentEvent } from './document-statements.sql.js';
import type { ListWindow } from '../../pagination.js';
import type { DocumentWithUsers } from './document-with-users.js';
import { raiseSearchGenerations } from '../retrieval/search-generations.sql.js';

export type { CorpusScope, DocumentChange, DocumentEvent, DocumentFilter, DocumentWithUsers };

/** The columns an update sets (joined by commas) and their values; a column given as undefined is not set, as Kysely's own update leaves it out. */
function columnsOf(fields: DocumentChange): { columnList: string; values: unknown[] } {
  const columns = Object.keys(fields).filter((column) => fields[column as keyof DocumentChange] !== undefined);
  if (columns.length === 0) throw new Error('an update of a document sets at least one column');
  return { columnList: columns.join(','), values: columns.map((column) => fields[column as keyof DocumentChange]) };
}

export type NewDocument = Omit<Insertable<DocumentsTable>, 'tags'> & { tags: string[] };

/** Rows a multi-row statement carries: bound parameters stay well under both databases' limits. */
const ROWS_PER_STATEMENT = 500;

async function inBatches<T, R>(items: readonly T[], write: (batch: T[]) => Promise<R[]>): Promise<R[]> {
  const written: R[] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_STATEMENT) written.push(...(await write(items.slice(start, start + ROWS_PER_STATEMENT))));
  return written;
}

/** A document named with its organization and corpus, as its chunks are. */
export interface DocumentInCorpus {
  id: number;
  organization_id: number;
  corpus_id: number;
}

export class DocumentsRepo {
  /** Events appended in this transaction, written at its end (atCommit). */
  private readonly eventsAtCommit: DocumentEvent[] = [];
  /** Corpora whose chunks this transaction changed: their search generations are raised at its end, after the events. */
  private readonly changedCorporaAtCommit = new Set<number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly atCommit?: AtCommit,
  ) {}

  private ofCorpus(scope: CorpusScope) {
    return this.db.selectFrom('documents').where('organization_id', '=', scope.organizationId).where('corpus_id', '=', scope.corpusId);
  }

  private withUsers(scope: CorpusScope) {
    return this.db
      .selectFrom('documents as d')
      .innerJoin('users as creator', 'creator.id', 'd.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'd.modified_by')
      .where('d.organization_id', '=', scope.organizationId)
      .where('d.corpus_id', '=', scope.corpusId);
  }

  find(scope: CorpusScope, documentId: number): Promise<DocumentWithUsers | undefined> {
    return this.withUsers(scope).selectAll('d').select(USER_COLUMNS).where('d.id', '=', documentId).executeTakeFirst();
  }

  /** Documents of the corpus by id, in one query (an upload's answer); in no particular order. */
  findMany(scope: CorpusScope, documentIds: readonly number[]) {
    return inBatches(documentIds, (ids) => this.withUsers(scope).selectAll('d').select(USER_COLUMNS).where('d.id', 'in', ids).execute());
  }

  list(scope: CorpusScope, filter: DocumentFilter, window: ListWindow) {
    const query = filteredDocuments(this.withUsers(scope), filter);
    return selectSlice(query.selectAll('d').select(USER_COLUMNS).orderBy('d.id', 'desc'), window);
  }

  /** The corpus of a document of the organization, for routes that name the document alone. */
  async corpusOf(organizationId: number, documentId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('documents').select('corpus_id').where('organization_id', '=', organizationId).where('id', '=', documentId).executeTakeFirst();
    return row?.corpus_id;
  }

  /** A document of the organization as the pipeline reads it, whatever its corpus, with the corpus's language. */
  async findForProcessing(organizationId: number, documentId: number) {
    const [document] = await documentToProcess(this.db, organizationId, documentId);
    return document;
  }

  /** Updates a document unless it was deleted meanwhile; false when it was. */
  async updateIfPresent(organizationId: number, documentId: number, fields: DocumentChange): Promise<boolean> {
    const { columnList, values } = columnsOf(fields);
    return (await updateOfColumns(columnList)(this.db, organizationId, documentId, ...values)).length > 0;
  }

  /**
   * The same, answering the language of the document's corpus, read with the corpus's row kept from
   * changing until the transaction ends (a language change waits for it); undefined when deleted.
   */
  async updateReadingLanguage(organizationId: number, documentId: number, fields: DocumentChange): Promise<string | undefined> {
    const { columnList, values } = columnsOf(fields);
    const [row] = await updateOfColumnsReadingLanguage(this.dialect)(columnList)(this.db, organizationId, documentId, ...values);
    return row?.language ?? undefined;
  }

  /** Moves a document that is not deleted from one step to another; false when it was not at that step. */
  async moveStep(organizationId: number, documentId: number, from: DocumentStep, to: DocumentStep, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('documents')
      .set({ step: to, modified_on: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', documentId)
      .where('step', '=', from)
      .where('deleted_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertChunks(chunks: Insertable<DB['chunks']>[]): Promise<void> {
    // The rows carry a tsvector where the database keeps one (FullTextIndex.searchColumns).
    const insert = chunks[0]?.search === undefined ? insertChunkRows : insertChunkRowsWithVectors;
    for (let start = 0; start < chunks.length; start += CHUNKS_PER_STATEMENT) await insert(this.db, chunks.slice(start, start + CHUNKS_PER_STATEMENT));
    await this.chunksChanged(chunks.map((chunk) => chunk.corpus_id));
  }

  /** A batch of the corpus's documents after a given id, in id order, as rows to present (the listing's fast path writes their JSON in SQL). */
  listingBatch(scope: CorpusScope, afterId: number, limit: number, includeDeleted: boolean) {
    let query = this.withUsers(scope).where('d.id', '>', afterId);
    if (!includeDeleted) query = query.where('d.deleted_on', 'is', null);
    return query.selectAll('d').select(USER_COLUMNS).orderBy('d.id', 'asc').limit(limit).execute();
  }

  /** The id of the document at a 0-based position of the corpus's id order. */
  async idAtOffset(scope: CorpusScope, offset: number, includeDeleted: boolean): Promise<number | undefined> {
    let query = this.ofCorpus(scope).select('id');
    if (!includeDeleted) query = query.where('deleted_on', 'is', null);
    const row = await query.orderBy('id').limit(1).offset(offset).executeTakeFirst();
    return row?.id;
  }

  async countForListing(scope: CorpusScope, includeDeleted: boolean): Promise<number> {
    let query = this.ofCorpus(scope);
    if (!includeDeleted) query = query.where('deleted_on', 'is', null);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return Number(total);
  }

  /**
   * Documents of the corpus (not deleted) holding any of the given content hashes, oldest first. Put
   * in order here rather than by the statement: asked for the order, SQLite reads every document of
   * the corpus through the index that gives it, instead of looking each hash up.
   */
  async findByHashes(scope: CorpusScope, hashes: string[]) {
    if (hashes.length === 0) return [];
    const rows = await this.ofCorpus(scope)
      .select(['id', 'source', 'content_hash', 'step', 'failed_on'])
      .where('deleted_on', 'is', null)
      .where('content_hash', 'in', hashes)
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Documents of the corpus (not deleted) with any of the given sources (file names). */
  findBySources(scope: CorpusScope, sources: string[]) {
    if (sources.length === 0) return Promise.resolve([]);
    return this.ofCorpus(scope)
      .select(['id', 'source', 'content_hash', 'step', 'failed_on'])
      .where('deleted_on', 'is', null)
      .where('source', 'in', sources)
      .orderBy('id')
      .execute();
  }

  /**
   * New documents with their tags, in a few statements for them all. A multi-row RETURNING promises
   * no order, so each id is given by the document's file key, which is the server's and unique.
   */
  async insertMany(documents: readonly (NewDocument & { file_key: string })[]): Promise<Map<string, number>> {
    const rows = await inBatches(documents, (batch) =>
      this.db
        .insertInto('documents')
        .values(batch.map((document) => ({ ...document, tags: JSON.stringify(document.tags) })))
        .returning(['id', 'file_key'])
        .execute(),
    );
    const idByKey = new Map(rows.map((row) => [row.file_key!, row.id]));
    const tags = documents.flatMap((document) => document.tags.map((tag) => ({ document_id: idByKey.get(document.file_key)!, tag })));
    await inBatches(tags, (batch) => this.db.insertInto('document_tags').values(batch).execute());
    return idByKey;
  }

  /** A new document with its tags (the JSON column and the rows that filter by tag). */
  async insert(document: NewDocument) {
    const row = await this.db
      .insertInto('documents')
      .values({ ...document, tags: JSON.stringify(document.tags) })
      .returning(['id', 'corpus_id', 'organization_id', 'step'])
      .executeTakeFirstOrThrow();
    if (document.tags.length) await this.db.insertInto('document_tags').values(document.tags.map((tag) => ({ document_id: row.id, tag }))).execute();
    return row;
  }

  async update(documentId: number, fields: DocumentChange): Promise<void> {
    await this.db.updateTable('documents').set(fields).where('id', '=', documentId).execute();
  }

  /** Updates a document of the organization; false when it has none of that id. */
  async updateInOrganization(organizationId: number, documentId: number, fields: DocumentChange): Promise<boolean> {
    const result = await this.db.updateTable('documents').set(fields).where('organization_id', '=', organizationId).where('id', '=', documentId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Replaces a document's tags: the rows that filter by tag, and the JSON column that presents them. */
  async replaceTags(organizationId: number, documentId: number, tags: string[]): Promise<void> {
    if (!(await this.updateInOrganization(organizationId, documentId, { tags: JSON.stringify(tags) }))) return;
    await this.db.deleteFrom('document_tags').where('document_id', '=', documentId).execute();
    if (tags.length) await this.db.insertInto('document_tags').values(tags.map((tag) => ({ document_id: documentId, tag }))).execute();
  }

  /** Removes a document's chunks (before it is chunked again). */
  async deleteChunks(document: DocumentInCorpus): Promise<void> {
    await chunksOfDocument(this.db, document.organization_id, document.id);
    await this.chunksChanged([document.corpus_id]);
  }

  /**
   * Marks a document deleted and removes its chunks, so that it leaves retrieval with this
   * transaction: its chunk count is 0 from then on, whatever removed it (a person, a connector, a
   * mailbox). Its step stays what it was.
   */
  async markDeleted(document: DocumentInCorpus, change: { at: string; by: number }): Promise<void> {
    await this.updateInOrganization(document.organization_id, document.id, { deleted_on: change.at, modified_on: change.at, modified_by: change.by, chunk_count: 0 });
    await this.deleteChunks(document);
  }

  /**
   * The corpora's chunks changed: searches must count their statistics again (search-generations.ts).
   * In a transaction, at its end, after its events: the generations' rows, locked until the commit,
   * are then the last locks it takes, in the order of the corpora as the events' are.
   */
  private async chunksChanged(corpusIds: readonly number[]): Promise<void> {
    if (corpusIds.length === 0) return;
    if (this.atCommit === undefined) return raiseSearchGenerations(this.db, corpusIds);
    for (const corpusId of corpusIds) this.changedCorporaAtCommit.add(corpusId);
    this.registerAtCommit();
  }

  async fileKeysOfCorpus(scope: CorpusScope): Promise<string[]> {
    const rows = await this.ofCorpus(scope).select('file_key').where('file_key', 'is not', null).execute();
    return rows.map((row) => row.file_key!);
  }

  async appendEvent(event: DocumentEvent) {
    await this.appendEvents([event]);
  }

  /**
   * Events in the order given (their ids follow it). A corpus's events commit in the order of their
   * ids, so that the progress stream, which follows ids, never passes one committed later: a
   * transaction appending to a corpus waits for the one that appended to it before to end. So in a
   * transaction they are written at its end, all in one statement: the wait, and the lock that makes
   * the next one wait, last only from there to the commit.
   */
  async appendEvents(events: readonly DocumentEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (this.atCommit === undefined) return this.insertEvents(events);
    this.eventsAtCommit.push(...events);
    this.registerAtCommit();
  }

  /** One write at the transaction's end: its events, then its corpora's search generations, in that order whichever came first. */
  private registerAtCommit(): void {
    this.atCommit!.once('document events and search generations', async () => {
      if (this.eventsAtCommit.length > 0) await this.insertEvents(this.eventsAtCommit.splice(0));
      const changed = [...this.changedCorporaAtCommit];
      this.changedCorporaAtCommit.clear();
      await raiseSearchGenerations(this.db, changed);
    });
  }

  private async insertEvents(events: readonly DocumentEvent[]): Promise<void> {
    // PostgreSQL: one statement however many, which takes the corpora's locks before drawing any id,
    // and notifies the corpora's readers at commit.
    if (!this.dialect.oneWriterAtATime) {
      await insertEventsInCommitOrder(this.db, events);
      return;
    }
    // SQLite, one writer at a time, has nothing to wait for: a document's few events in a statement compiled once.
    if (events.length <= PRECOMPILED_EVENTS) await insertEvents(this.db, events);
    else await inBatches(events, (batch) => this.db.insertInto('document_events').values(batch).execute());
    // Readers are in this process, and told once the events are committed.
    const corpusIds = new Set(events.map((event) => event.corpus_id));
    const tellReaders = () => corpusIds.forEach((corpusId) => notifyInProcess(DOCUMENT_EVENTS_CHANNEL, String(corpusId)));
    if (this.atCommit === undefined) tellReaders();
    else this.atCommit.afterCommit(tellReaders);
  }

  /** Events name their corpus only: the corpus is checked to be the organization's. */
  private eventsOf(scope: CorpusScope) {
    return this.db
      .selectFrom('document_events')
      .where('corpus_id', '=', scope.corpusId)
      .where((eb) => eb.exists(eb.selectFrom('corpora').select('id').where('id', '=', scope.corpusId).where('organization_id', '=', scope.organizationId)));
  }

  eventsAfter(scope: CorpusScope, afterId: number, limit: number) {
    return this.eventsOf(scope)
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async lastEventId(scope: CorpusScope): Promise<number> {
    const row = await this.eventsOf(scope)
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /**
   * Live documents of the whole deployment by step, and how many of each failed: for the metrics
   * endpoint, which reports totals, never one organization's. Deliberately not scoped by organization.
   */
  async countByStepAcrossOrganizations(): Promise<{ step: DocumentStep; documents: number; failed: number }[]> {
    const rows = await this.db
      .selectFrom('documents')
      .select((eb) => ['step', eb.fn.countAll<number>().as('documents'), eb.fn.count<number>('failed_on').as('failed')])
      .where('deleted_on', 'is', null)
      .groupBy('step')
      .execute();
    return rows.map((row) => ({ step: row.step, documents: Number(row.documents), failed: Number(row.failed) }));
  }
}

export type DocumentToProcess = NonNullable<Awaited<ReturnType<DocumentsRepo['findForProcessing']>>>;

// Documents of a corpus: accepting uploads (files, text, URLs) durably, reading, tagging, deleting
// and retrying them. Processing itself is the pipeline's (pipeline/); an upload only stores the
// bytes, writes the document row and its job in one transaction, and wakes a worker.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { now } from '../../clock.js';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { BadRequest, Conflict, NotFound, UnsupportedMediaType } from '../../errors.js';
import type { PageRequest, PageResult } from '../../pagination.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { presentDocument, presentLegacyDocument } from './document.presenter.js';
import { DocumentsRepo, type DocumentFilter } from './documents.repo.js';
import type { DocumentView, LegacyDocument, OnDuplicate } from './documents.schemas.js';
import type { IncomingDocument } from './incoming.js';
import { enqueueProcessing, recordStep } from './pipeline/document-steps.js';

/** What the documents service needs from the outside world, kept apart so that tests and the CLI share it. */
export interface DocumentSources {
  /** The document type decided from the content, or undefined when it cannot be processed. */
  detectType(bytes: Buffer): string | undefined;
  /** Fetches a URL through the egress client. */
  fetchUrl(url: string): Promise<{ bytes: Buffer; url: string }>;
}

interface Accepted extends IncomingDocument {
  type: string;
  hash: string;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export class DocumentsService {
  constructor(
    private readonly database: Database,
    private readonly blobs: BlobStore,
    private readonly corpora: CorporaService,
    private readonly sources: DocumentSources,
    private readonly onEnqueued: () => void,
  ) {}

  private repo(db = this.database.db) {
    return new DocumentsRepo(db);
  }

  private async view(corpusId: number, documentId: number): Promise<DocumentView> {
    const document = await this.repo().find(corpusId, documentId);
    if (!document) throw new NotFound('document', documentId);
    return presentDocument(document);
  }

  /** A text or URL document, as JSON describes it. */
  async incomingFromJson(input: { upload_from?: 'text' | 'url' | undefined; text?: string | undefined; url?: string | undefined; name?: string | undefined }): Promise<IncomingDocument> {
    const channel = input.upload_from ?? (input.url !== undefined ? 'url' : 'text');
    if (channel === 'url') {
      if (!input.url) throw new BadRequest('url is required for upload_from url', [{ pointer: '/body/url', message: 'is required' }]);
      const fetched = await this.sources.fetchUrl(input.url);
      return { source: input.name ?? fetched.url, bytes: fetched.bytes, uploadFrom: 'url', accessUrl: fetched.url };
    }
    if (!input.text) throw new BadRequest('text is required for upload_from text', [{ pointer: '/body/text', message: 'is required' }]);
    return { source: input.name ?? 'text', bytes: Buffer.from(input.text, 'utf8'), uploadFrom: 'text', accessUrl: null };
  }

  /**
   * Accepts documents into a corpus. Every document is checked first (type, duplicates); only when
   * all pass are the files stored and the rows and jobs written, in one transaction. A 2xx means the
   * documents are on disk and will be processed.
   */
  async upload(actor: Actor, corpusId: number, incoming: IncomingDocument[], options: { tags: string[]; onDuplicate: OnDuplicate }) {
    await this.corpora.requireCorpus(actor, corpusId, 'write');
    const accepted: Accepted[] = incoming.map((document) => {
      const type = this.sources.detectType(document.bytes);
      if (!type) throw new UnsupportedMediaType(`${document.source}: this kind of file cannot be processed (supported: PDF, DOCX, HTML, Markdown, plain text, CSV, JSON)`);
      return { ...document, type, hash: sha256(document.bytes) };
    });

    const existing = await this.repo().findByHashes(corpusId, [...new Set(accepted.map((document) => document.hash))]);
    // The oldest document holding each content stands for it; replace removes every one holding it.
    const existingByHash = new Map<string, (typeof existing)[number]>();
    for (const document of existing) if (!existingByHash.has(document.content_hash)) existingByHash.set(document.content_hash, document);
    const duplicates = accepted.filter((document) => existingByHash.has(document.hash));
    if (duplicates.length && options.onDuplicate === 'reject') {
      throw new Conflict(
        `The corpus already holds ${duplicates.map((d) => `${d.source} (as document ${existingByHash.get(d.hash)!.id})`).join(', ')}; choose on_duplicate skip, replace or keep_both`,
      );
    }
    const toStore = options.onDuplicate === 'skip' ? accepted.filter((document) => !existingByHash.has(document.hash)) : accepted;

    const keys: string[] = [];
    try {
      for (const document of toStore) keys.push(await this.blobs.put(document.bytes));
      const ids = await this.database.db.transaction().execute(async (trx) => {
        const repo = this.repo(trx);
        const at = now();
        if (options.onDuplicate === 'replace') {
          const replacedHashes = new Set(duplicates.map((duplicate) => duplicate.hash));
          for (const old of existing) if (replacedHashes.has(old.content_hash)) await this.markDeleted(trx, old.id, actor.userId, at);
        }
        const created: number[] = [];
        for (const [index, document] of toStore.entries()) {
          const row = await repo.insert({
            organization_id: actor.organizationId,
            corpus_id: corpusId,
            type: document.type,
            source: document.source,
            access_url: document.accessUrl,
            text: '',
            tags: JSON.stringify(options.tags),
            upload_from: document.uploadFrom,
            step: 'queued',
            content_hash: document.hash,
            file_key: keys[index]!,
            size_bytes: document.bytes.length,
            created_on: at,
            created_by: actor.userId,
            modified_on: at,
            modified_by: actor.userId,
          });
          await repo.replaceTags(row.id, options.tags);
          await recordStep(trx, { corpusId, documentId: row.id, step: 'queued', failed: false, error: null, at });
          await enqueueProcessing(trx, this.database.dialect, actor.organizationId, row.id, at);
          created.push(row.id);
        }
        return created;
      });
      this.onEnqueued();
      const items = await Promise.all(ids.map((id) => this.view(corpusId, id)));
      if (options.onDuplicate === 'skip') items.push(...(await Promise.all(duplicates.map((d) => this.view(corpusId, existingByHash.get(d.hash)!.id)))));
      const action = options.onDuplicate === 'skip' ? 'skipped' : options.onDuplicate === 'replace' ? 'replaced' : 'kept_both';
      return { items, duplicates: duplicates.map((d) => ({ source: d.source, document_id: existingByHash.get(d.hash)!.id, action })) };
    } catch (error) {
      // Nothing half-done: files stored for a request that did not commit are removed.
      for (const key of keys) await this.blobs.delete(key).catch(() => undefined);
      throw error;
    }
  }

  async list(actor: Actor, corpusId: number, filter: DocumentFilter, page: PageRequest): Promise<PageResult<DocumentView>> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const { rows, total } = await this.repo().list(corpusId, filter, page);
    return { items: rows.map(presentDocument), page: page.page, page_size: page.page_size, total };
  }

  /** A document named by its id alone (the legacy generation): its corpus, which the caller must read. */
  async corpusOf(actor: Actor, documentId: number): Promise<number> {
    const corpusId = await this.repo().corpusOf(actor.organizationId, documentId);
    if (corpusId === undefined) throw new NotFound('document', documentId);
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    return corpusId;
  }

  /** One document in the shape of the corpus document listing. */
  async getListed(actor: Actor, documentId: number): Promise<LegacyDocument> {
    const corpusId = await this.corpusOf(actor, documentId);
    const document = await this.repo().find(corpusId, documentId);
    if (!document) throw new NotFound('document', documentId);
    return presentLegacyDocument(document);
  }

  async get(actor: Actor, corpusId: number, documentId: number) {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const document = await this.repo().find(corpusId, documentId);
    if (!document) throw new NotFound('document', documentId);
    return { ...presentDocument(document), text: document.text };
  }

  /** The stored original of a document, as it was uploaded or fetched, for whoever may read the corpus. */
  async original(actor: Actor, corpusId: number, documentId: number): Promise<{ bytes: Buffer; type: string; source: string }> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const document = await this.repo().find(corpusId, documentId);
    if (!document || document.deleted_on !== null || document.file_key === null) throw new NotFound('document', documentId);
    const bytes = await this.blobs.get(document.file_key);
    if (!bytes) throw new NotFound('document', documentId);
    return { bytes, type: document.type, source: document.source };
  }

  private async markDeleted(trx: Kysely<DB>, documentId: number, userId: number, at: string) {
    const repo = this.repo(trx);
    await repo.deleteChunks(documentId);
    await repo.update(documentId, { deleted_on: at, modified_on: at, modified_by: userId });
  }

  /** Marks the document deleted and removes its chunks at once, so it leaves retrieval with this request. */
  async delete(actor: Actor, corpusId: number, documentId: number): Promise<DocumentView> {
    await this.corpora.requireCorpus(actor, corpusId, 'write');
    const document = await this.repo().find(corpusId, documentId);
    if (!document || document.deleted_on !== null) throw new NotFound('document', documentId);
    await this.database.db.transaction().execute((trx) => this.markDeleted(trx, documentId, actor.userId, now()));
    if (document.file_key) await this.blobs.delete(document.file_key);
    await this.repo().update(documentId, { file_key: null });
    return this.view(corpusId, documentId);
  }

  async setTags(actor: Actor, corpusId: number, documentId: number, input: { tags?: string[] | undefined; annotations?: string | null | undefined }) {
    await this.corpora.requireCorpus(actor, corpusId, 'write');
    const document = await this.repo().find(corpusId, documentId);
    if (!document || document.deleted_on !== null) throw new NotFound('document', documentId);
    await this.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const at = now();
      if (input.tags !== undefined) {
        await repo.replaceTags(documentId, input.tags);
        await repo.update(documentId, { tags: JSON.stringify(input.tags) });
      }
      if (input.annotations !== undefined) await repo.update(documentId, { annotations: input.annotations });
      await repo.update(documentId, { modified_on: at, modified_by: actor.userId });
    });
    return this.view(corpusId, documentId);
  }

  /** Processes a failed document again from the step that failed. */
  async retry(actor: Actor, corpusId: number, documentId: number): Promise<DocumentView> {
    await this.corpora.requireCorpus(actor, corpusId, 'write');
    const document = await this.repo().find(corpusId, documentId);
    if (!document || document.deleted_on !== null) throw new NotFound('document', documentId);
    if (document.failed_on === null) throw new Conflict(`Document ${documentId} has not failed; only failed documents are retried`);
    await this.database.db.transaction().execute(async (trx) => {
      const at = now();
      await this.repo(trx).update(documentId, { failed_on: null, error: null, modified_on: at, modified_by: actor.userId });
      await recordStep(trx, { corpusId, documentId, step: document.step, failed: false, error: null, at });
      await enqueueProcessing(trx, this.database.dialect, actor.organizationId, documentId, at);
    });
    this.onEnqueued();
    return this.view(corpusId, documentId);
  }

  async duplicateCheck(actor: Actor, corpusId: number, input: { hashes?: string[] | undefined; names?: string[] | undefined }) {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const hashes = (input.hashes ?? []).map((hash) => hash.toLowerCase());
    const byHash = new Map((await this.repo().findByHashes(corpusId, hashes)).map((d) => [d.content_hash, d]));
    const byName = new Map((await this.repo().findBySources(corpusId, input.names ?? [])).map((d) => [d.source, d]));
    const shown = (d: { id: number; source: string; step: string; failed_on: string | null } | undefined) =>
      d ? { id: d.id, source: d.source, step: d.step, is_failed: d.failed_on !== null } : null;
    return {
      items: [
        ...hashes.map((hash) => ({ hash, name: null, document: shown(byHash.get(hash)) })),
        ...(input.names ?? []).map((name) => ({ hash: null, name, document: shown(byName.get(name)) })),
      ],
    };
  }
}

// Documents of a corpus: accepting uploads (files, text, URLs) durably, reading, tagging, deleting
// and retrying them. Processing itself is the pipeline's (pipeline/); an upload only stores the
// bytes, writes the document row and its job in one transaction, and wakes a worker (intake.ts).
import { now } from '../../clock.js';
import { BadRequest, Conflict, NotFound, UnsupportedMediaType } from '../../errors.js';
import { asPage, windowOf, type PageRequest, type PageResult } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { presentDocument, presentLegacyDocument } from './document.presenter.js';
import type { CorpusScope, DocumentFilter } from './documents.repo.js';
import type { DocumentView, LegacyDocument, OnDuplicate } from './documents.schemas.js';
import type { IncomingDocument } from './incoming.js';
import { sentFields } from '../../fields.js';
import { enqueueProcessing, recordStep } from './pipeline/document-steps.js';
import { contentHash, DocumentIntake } from './intake.js';

/** What the documents service needs from the outside world, kept apart so that tests and the CLI share it. */
export interface DocumentSources {
  /** The document type decided from the content, or undefined when it cannot be processed. */
  detectType(bytes: Buffer): string | undefined;
  /** Fetches a URL through the egress client. */
  fetchUrl(url: string): Promise<{ bytes: Buffer; url: string }>;
}

/** What an upload request brings: the documents and how to file them. */
export interface UploadBatch {
  incoming: IncomingDocument[];
  tags: string[];
  onDuplicate: OnDuplicate;
}

interface Accepted extends IncomingDocument {
  type: string;
  hash: string;
}

export class DocumentsService {
  private readonly intake: DocumentIntake;

  constructor(
    private readonly store: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly corpora: CorporaService,
    private readonly sources: DocumentSources,
    private readonly onEnqueued: () => void,
  ) {
    this.intake = new DocumentIntake(store, blobs, onEnqueued);
  }

  private async view(scope: CorpusScope, documentId: number): Promise<DocumentView> {
    const document = await this.store.repos.documents.find(scope, documentId);
    if (!document) throw new NotFound('document', documentId);
    return presentDocument(document);
  }

  /** Documents in the order of their ids, read in one query. */
  private async views(scope: CorpusScope, documentIds: number[]): Promise<DocumentView[]> {
    const byId = new Map((await this.store.repos.documents.findMany(scope, documentIds)).map((document) => [document.id, document]));
    return documentIds.map((id) => {
      const document = byId.get(id);
      if (!document) throw new NotFound('document', id);
      return presentDocument(document);
    });
  }

  /** The corpus, once the caller is known to hold `needed` on it, as every document query names it. */
  private async scope(actor: Actor, corpusId: number, needed: 'read' | 'write'): Promise<CorpusScope> {
    await this.corpora.requireCorpus(actor, corpusId, needed);
    return { organizationId: actor.organizationId, corpusId };
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
   * Accepts documents into a corpus. The caller's write permission is checked before the request's
   * body is read (`read`), so nothing is read or fetched for a caller who may not upload. Every
   * document is checked next (type, duplicates); only when all pass are the files stored and the rows
   * and jobs written, in one transaction. A 2xx means the documents are on disk and will be processed.
   */
  async upload(actor: Actor, corpusId: number, read: () => Promise<UploadBatch>) {
    const scope = await this.scope(actor, corpusId, 'write');
    const { incoming, tags, onDuplicate } = await read();
    const accepted: Accepted[] = incoming.map((document) => {
      const type = this.sources.detectType(document.bytes);
      if (!type) throw new UnsupportedMediaType(`${document.source}: this kind of file cannot be processed (supported: PDF, DOCX, HTML, Markdown, plain text, CSV, JSON)`);
      return { ...document, type, hash: contentHash(document.bytes) };
    });

    const existing = await this.store.repos.documents.findByHashes(scope, [...new Set(accepted.map((document) => document.hash))]);
    // The oldest document holding each content stands for it; replace removes every one holding it.
    const existingByHash = new Map<string, (typeof existing)[number]>();
    for (const document of existing) if (!existingByHash.has(document.content_hash)) existingByHash.set(document.content_hash, document);
    const duplicates = accepted.filter((document) => existingByHash.has(document.hash));
    if (duplicates.length && onDuplicate === 'reject') {
      throw new Conflict(
        `The corpus already holds ${duplicates.map((d) => `${d.source} (as document ${existingByHash.get(d.hash)!.id})`).join(', ')}; choose on_duplicate skip, replace or keep_both`,
      );
    }
    const toStore = onDuplicate === 'skip' ? accepted.filter((document) => !existingByHash.has(document.hash)) : accepted;

    const owner = { organizationId: actor.organizationId, corpusId, userId: actor.userId };
    const admitted = toStore.map((document) => ({ ...document, tags }));
    // Replace withdraws every document holding a content sent again.
    const replacedHashes = new Set(duplicates.map((duplicate) => duplicate.hash));
    const replaced = onDuplicate === 'replace' ? existing.filter((old) => replacedHashes.has(old.content_hash)).map((old) => old.id) : [];
    const { admitted: ids } = await this.intake.replace(owner, replaced, admitted);
    const shown = onDuplicate === 'skip' ? [...ids, ...duplicates.map((d) => existingByHash.get(d.hash)!.id)] : ids;
    const items = await this.views(scope, shown);
    const action = onDuplicate === 'skip' ? 'skipped' : onDuplicate === 'replace' ? 'replaced' : 'kept_both';
    return { items, duplicates: duplicates.map((d) => ({ source: d.source, document_id: existingByHash.get(d.hash)!.id, action })) };
  }

  async list(actor: Actor, corpusId: number, filter: DocumentFilter, page: PageRequest): Promise<PageResult<DocumentView>> {
    const scope = await this.scope(actor, corpusId, 'read');
    const slice = await this.store.repos.documents.list(scope, filter, windowOf(page));
    return asPage({ items: slice.items.map(presentDocument), total: slice.total }, page);
  }

  /** A document named by its id alone (the legacy generation): its corpus, which the caller must read. */
  private async scopeOf(actor: Actor, documentId: number): Promise<CorpusScope> {
    const corpusId = await this.store.repos.documents.corpusOf(actor.organizationId, documentId);
    if (corpusId === undefined) throw new NotFound('document', documentId);
    return this.scope(actor, corpusId, 'read');
  }

  /** The corpus of a document named by its id alone, which the caller must read. */
  async corpusOf(actor: Actor, documentId: number): Promise<number> {
    return (await this.scopeOf(actor, documentId)).corpusId;
  }

  /** One document in the shape of the corpus document listing. */
  async getListed(actor: Actor, documentId: number): Promise<LegacyDocument> {
    const document = await this.store.repos.documents.find(await this.scopeOf(actor, documentId), documentId);
    if (!document) throw new NotFound('document', documentId);
    return presentLegacyDocument(document);
  }

  async get(actor: Actor, corpusId: number, documentId: number) {
    const document = await this.store.repos.documents.find(await this.scope(actor, corpusId, 'read'), documentId);
    if (!document) throw new NotFound('document', documentId);
    return { ...presentDocument(document), text: document.text };
  }

  /** The stored original of a document, as it was uploaded or fetched, for whoever may read the corpus. */
  async original(actor: Actor, corpusId: number, documentId: number): Promise<{ bytes: Buffer; type: string; source: string }> {
    const document = await this.store.repos.documents.find(await this.scope(actor, corpusId, 'read'), documentId);
    if (!document || document.deleted_on !== null || document.file_key === null) throw new NotFound('document', documentId);
    const bytes = await this.blobs.get(document.file_key);
    if (!bytes) throw new NotFound('document', documentId);
    return { bytes, type: document.type, source: document.source };
  }

  /** A document of the corpus that is not deleted, which the caller may change. */
  private async changeable(actor: Actor, corpusId: number, documentId: number) {
    const scope = await this.scope(actor, corpusId, 'write');
    const document = await this.store.repos.documents.find(scope, documentId);
    if (!document || document.deleted_on !== null) throw new NotFound('document', documentId);
    return { scope, document };
  }

  /** Marks the document deleted and removes its chunks at once, so it leaves retrieval with this request. */
  async delete(actor: Actor, corpusId: number, documentId: number): Promise<DocumentView> {
    const { scope, document } = await this.changeable(actor, corpusId, documentId);
    await this.intake.withdraw({ ...scope, userId: actor.userId }, [document.id]);
    return this.view(scope, documentId);
  }

  async setTags(actor: Actor, corpusId: number, documentId: number, input: { tags?: string[] | undefined; annotations?: string | null | undefined }) {
    const { scope } = await this.changeable(actor, corpusId, documentId);
    await this.store.transaction(async (repos) => {
      if (input.tags !== undefined) await repos.documents.replaceTags(actor.organizationId, documentId, input.tags);
      await repos.documents.updateInOrganization(actor.organizationId, documentId, {
        ...sentFields(input, ['annotations']),
        modified_on: now(),
        modified_by: actor.userId,
      });
    });
    return this.view(scope, documentId);
  }

  /** Processes a failed document again from the step that failed. */
  async retry(actor: Actor, corpusId: number, documentId: number): Promise<DocumentView> {
    const { scope, document } = await this.changeable(actor, corpusId, documentId);
    if (document.failed_on === null) throw new Conflict(`Document ${documentId} has not failed; only failed documents are retried`);
    await this.store.transaction(async (repos) => {
      const at = now();
      await repos.documents.updateInOrganization(actor.organizationId, documentId, { failed_on: null, error: null, modified_on: at, modified_by: actor.userId });
      await recordStep(repos, { organizationId: actor.organizationId, corpusId, documentId, step: document.step, failed: false, error: null, at });
      await enqueueProcessing(repos, actor.organizationId, documentId, at);
    });
    this.onEnqueued();
    return this.view(scope, documentId);
  }

  async duplicateCheck(actor: Actor, corpusId: number, input: { hashes?: string[] | undefined; names?: string[] | undefined }) {
    const scope = await this.scope(actor, corpusId, 'read');
    const hashes = (input.hashes ?? []).map((hash) => hash.toLowerCase());
    const byHash = new Map((await this.store.repos.documents.findByHashes(scope, hashes)).map((d) => [d.content_hash, d]));
    const byName = new Map((await this.store.repos.documents.findBySources(scope, input.names ?? [])).map((d) => [d.source, d]));
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

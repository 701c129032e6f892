// The intake of documents: the one writer of document rows, their stored files and their processing
// jobs, whatever brings them (an upload, a document library, a mailbox). A change is one transaction:
// the documents it replaces or withdraws are marked deleted (their chunks leave retrieval with it),
// the new rows are written with their `queued` events and jobs, and the source's own records (its
// items, its counters) are written by the caller's `alongside` in the same transaction. Files are
// stored before it, all or none; after it commits the worker is woken and the withdrawn documents'
// files go (a stray file costs only space, a missing one loses a document).
import { createHash } from 'node:crypto';
import { now } from '../../clock.js';
import type { UploadChannel } from '../../db/schema.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { queueNewDocuments } from './pipeline/document-steps.js';

/** The content hash of a document's bytes, by which duplicates are found. */
export const contentHash = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Who changes which corpus: its documents are written in their name. */
export interface IntakeOwner {
  organizationId: number;
  corpusId: number;
  userId: number;
}

/** A document to admit: its bytes, its detected type, and how it is shown and where it came from. */
export interface AdmittedDocument {
  bytes: Buffer;
  type: string;
  source: string;
  accessUrl: string | null;
  uploadFrom: UploadChannel;
  tags?: readonly string[];
  /** The content hash, when the caller computed it already (to find duplicates). */
  hash?: string;
}

/** What one change did, handed to `alongside` inside its transaction. */
export interface IntakeChange {
  /** The new documents' ids, in the order they were given. */
  admitted: number[];
  /** The documents marked deleted by this change (those already deleted or gone are left out). */
  withdrawn: number[];
}

type Alongside<T> = (repos: Repositories, change: IntakeChange) => Promise<T>;

export class DocumentIntake {
  constructor(
    private readonly store: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly onEnqueued: () => void,
  ) {}

  /** New documents, queued for processing. */
  admit<T>(owner: IntakeOwner, documents: readonly AdmittedDocument[], alongside?: Alongside<T>): Promise<IntakeChange & { value: T | undefined }> {
    return this.change(owner, documents, [], alongside);
  }

  /** New documents in the place of former ones, in one transaction. */
  replace<T>(owner: IntakeOwner, formerIds: readonly number[], documents: readonly AdmittedDocument[], alongside?: Alongside<T>): Promise<IntakeChange & { value: T | undefined }> {
    return this.change(owner, documents, formerIds, alongside);
  }

  /** Documents leaving the corpus: marked deleted, their chunks dropped, their files removed after. */
  withdraw<T>(owner: IntakeOwner, documentIds: readonly number[], alongside?: Alongside<T>): Promise<IntakeChange & { value: T | undefined }> {
    return this.change(owner, [], documentIds, alongside);
  }

  private async change<T>(owner: IntakeOwner, documents: readonly AdmittedDocument[], formerIds: readonly number[], alongside?: Alongside<T>) {
    const keys = await this.storeFiles(documents.map((document) => document.bytes));
    let workDone = false;
    let outcome: { change: IntakeChange; value: T | undefined; dropped: { documentId: number; key: string }[] };
    try {
      outcome = await this.store.transaction(async (repos) => {
        const at = now();
        const { withdrawn, dropped } = await this.markWithdrawn(repos, owner, formerIds, at);
        const admitted = await this.writeRows(repos, owner, documents, keys, at);
        const change = { admitted, withdrawn };
        const value = alongside ? await alongside(repos, change) : undefined;
        workDone = true;
        return { change, value, dropped };
      });
    } catch (error) {
      // The files go only when nothing can refer to them: the work in the transaction threw (or never
      // ran), so it rolled back. A failure once the work was done may have come during COMMIT, after
      // the rows were written: their files stay.
      if (!workDone) await this.deleteFiles(keys);
      throw error;
    }
    if (outcome.change.admitted.length > 0) this.onEnqueued();
    for (const file of outcome.dropped) {
      await this.blobs.delete(file.key).catch(() => undefined);
      await this.store.repos.documents.updateInOrganization(owner.organizationId, file.documentId, { file_key: null });
    }
    return { ...outcome.change, value: outcome.value };
  }

  /** The rows, their events and their jobs: one statement each for them all. */
  private async writeRows(repos: Repositories, owner: IntakeOwner, documents: readonly AdmittedDocument[], keys: string[], at: string): Promise<number[]> {
    if (documents.length === 0) return [];
    const idByKey = await repos.documents.insertMany(
      documents.map((document, index) => ({
        organization_id: owner.organizationId,
        corpus_id: owner.corpusId,
        type: document.type,
        source: document.source,
        access_url: document.accessUrl,
        text: '',
        tags: [...(document.tags ?? [])],
        upload_from: document.uploadFrom,
        step: 'queued' as const,
        content_hash: document.hash ?? contentHash(document.bytes),
        file_key: keys[index]!,
        size_bytes: document.bytes.length,
        created_on: at,
        created_by: owner.userId,
        modified_on: at,
        modified_by: owner.userId,
      })),
    );
    const ids = keys.map((key) => idByKey.get(key)!);
    await queueNewDocuments(repos, owner.organizationId, owner.corpusId, ids, at);
    return ids;
  }

  /** Marks the documents deleted (they leave retrieval with the transaction); answers which were, and their files. */
  private async markWithdrawn(repos: Repositories, owner: IntakeOwner, documentIds: readonly number[], at: string) {
    const withdrawn: number[] = [];
    const dropped: { documentId: number; key: string }[] = [];
    for (const documentId of documentIds) {
      const document = await repos.documents.findForProcessing(owner.organizationId, documentId);
      if (!document || document.deleted_on !== null) continue;
      await repos.documents.markDeleted(document, { at, by: owner.userId });
      withdrawn.push(documentId);
      if (document.file_key !== null) dropped.push({ documentId, key: document.file_key });
    }
    return { withdrawn, dropped };
  }

  /**
   * Stores the files side by side; all or none: when one fails, those already stored are removed
   * and the failure thrown. The keys come in the order of the files.
   */
  private async storeFiles(files: Buffer[]): Promise<string[]> {
    const results = await Promise.allSettled(files.map((bytes) => this.blobs.put(bytes)));
    const failure = results.find((result) => result.status === 'rejected');
    if (failure === undefined) return results.map((result) => (result as PromiseFulfilledResult<string>).value);
    await this.deleteFiles(results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
    throw failure.reason;
  }

  private async deleteFiles(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.blobs.delete(key).catch(() => undefined);
  }
}

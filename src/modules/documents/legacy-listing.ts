// GET /api/corpus/{corpus_id}/document/, as the interface fixes it (API.md §2.2): a bare JSON array
// of every document, read in batches by id. The database writes each batch's JSON
// (document-listing.repo.ts), so the server only hands strings on. A listing that fits in one batch
// is answered whole, with its length; a longer one is streamed batch by batch, so that memory stays
// flat however large the corpus.
import { Readable } from 'node:stream';
import type { UnitOfWork } from '../../repositories.js';
import type { CorpusAccess } from '../corpora/corpora.service.js';
import type { DocumentListingRepo, ListingBatch } from './document-listing.repo.js';
import type { CorpusScope } from './documents.repo.js';

/** Rows read a query: large enough that a query costs little per row, small enough to hold ~1 MB of text. */
const BATCH_ROWS = 500;

export interface ListingOptions {
  includeDeleted: boolean;
  limit?: number | undefined;
  offset: number;
}

export class LegacyListing {
  constructor(private readonly store: UnitOfWork) {}

  /**
   * The body (whole, or as a stream when it takes more than one batch), and the total when paged, of
   * a corpus the caller's access was found on (CorporaService.requireCorpus).
   */
  async open(access: CorpusAccess, options: ListingOptions): Promise<{ body: string | Readable; total: number | undefined }> {
    const scope = { organizationId: access.corpus.organization_id, corpusId: access.corpus.id };
    const { documents, documentListing } = this.store.repos;
    const paged = options.limit !== undefined || options.offset > 0;
    const total = paged ? await documents.countForListing(scope, options.includeDeleted) : undefined;
    const afterId = options.offset > 0 ? await documents.idAtOffset(scope, options.offset - 1, options.includeDeleted) : 0;
    if (afterId === undefined) return { body: '[]', total };
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const first = await documentListing.jsonBatch(scope, afterId, Math.min(BATCH_ROWS, limit), options.includeDeleted);
    if (first.count < BATCH_ROWS || first.count >= limit) return { body: `[${first.elements ?? ''}]`, total };
    return { body: Readable.from(this.chunks(documentListing, scope, first, limit - first.count, options.includeDeleted), { objectMode: false }), total };
  }

  /** The array's text from the first batch (already read, and full) on, a batch at a time. */
  private async *chunks(listing: DocumentListingRepo, scope: CorpusScope, first: ListingBatch, remaining: number, includeDeleted: boolean) {
    yield `[${first.elements}`;
    let last = first.last_id!;
    while (remaining > 0) {
      const batch = await listing.jsonBatch(scope, last, Math.min(BATCH_ROWS, remaining), includeDeleted);
      if (batch.count === 0) break;
      yield `,${batch.elements}`;
      remaining -= batch.count;
      if (batch.count < BATCH_ROWS) break;
      last = batch.last_id!;
    }
    yield ']';
  }
}

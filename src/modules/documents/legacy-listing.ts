// GET /api/corpus/{corpus_id}/document/, as the interface fixes it (API.md §2.2): a bare JSON array
// of every document, streamed in batches read by id, so that memory stays flat however large the
// corpus. Each element is serialised by a compiled serialiser that emits the sixteen fields only.
import { Readable } from 'node:stream';
import fastJson from 'fast-json-stringify';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { presentLegacyDocument } from './document.presenter.js';
import type { CorpusScope, DocumentsRepo } from './documents.repo.js';
import { LegacyDocumentSchema } from './documents.schemas.js';

/** Rows read a query: large enough that a query costs little per row, small enough to hold ~1 MB of text. */
const BATCH_ROWS = 500;

const serialiseDocument = fastJson(LegacyDocumentSchema);

export interface ListingOptions {
  includeDeleted: boolean;
  limit?: number | undefined;
  offset: number;
}

export class LegacyListing {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
  ) {}

  /** Checks access (404 for a corpus the caller may not read), then returns the body as a stream, and the total when paged. */
  async open(actor: Actor, corpusId: number, options: ListingOptions): Promise<{ body: Readable; total: number | undefined }> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const scope = { organizationId: actor.organizationId, corpusId };
    const repo = this.store.repos.documents;
    const paged = options.limit !== undefined || options.offset > 0;
    const total = paged ? await repo.countForListing(scope, options.includeDeleted) : undefined;
    return { body: Readable.from(this.chunks(repo, scope, options), { objectMode: false }), total };
  }

  private async *chunks(repo: DocumentsRepo, scope: CorpusScope, options: ListingOptions): AsyncGenerator<string> {
    yield '[';
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    let afterId = options.offset > 0 ? await repo.idAtOffset(scope, options.offset - 1, options.includeDeleted) : 0;
    let first = true;
    while (remaining > 0 && afterId !== undefined) {
      const rows = await repo.listingBatch(scope, afterId, Math.min(BATCH_ROWS, remaining), options.includeDeleted);
      if (rows.length === 0) break;
      let text = '';
      for (const row of rows) {
        text += (first ? '' : ',') + serialiseDocument(presentLegacyDocument(row));
        first = false;
      }
      yield text;
      remaining -= rows.length;
      afterId = rows.length < BATCH_ROWS ? undefined : rows.at(-1)!.id;
    }
    yield ']';
  }
}

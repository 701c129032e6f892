// GET /api/v2/corpora/{corpus_id}/documents: a page of a corpus's documents, written by the database
// (document-listing.repo.ts) as the `data` of the envelope, byte for byte what the route's schema
// would serialise of presentDocument's objects.
import { windowOf, type PageRequest } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { CorpusAccess } from '../corpora/corpora.service.js';
import type { DocumentFilter } from './documents.repo.js';

export class DocumentPages {
  constructor(private readonly store: UnitOfWork) {}

  /** The page as JSON text: { items, page, page_size, total }, of a corpus the caller's access was found on (CorporaService.requireCorpus). */
  async pageJson(access: CorpusAccess, filter: DocumentFilter, page: PageRequest): Promise<string> {
    const scope = { organizationId: access.corpus.organization_id, corpusId: access.corpus.id };
    const { items, total } = await this.store.repos.documentListing.jsonPage(scope, filter, windowOf(page));
    return `{"items":[${items ?? ''}],"page":${page.page},"page_size":${page.page_size},"total":${total}}`;
  }
}

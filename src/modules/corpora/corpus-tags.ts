// The entity tags of GET /api/v2/corpora/{id} and of the corpora listing (docs/api.md, "Conditional
// requests"). One corpus: its permission check reads its row anyway (with the caller's grant and its
// users' e-mails), so the tag hashes that row, the permission found, the corpus's listing version
// (migration 0060: its documents, hence their counts) and the caller's epoch; a 304 spares the counts
// and the serialising. The listing: the organization's corpora version (migration 0080: every corpus,
// grant and document count of the organization) and the caller's epoch; a 304 reads no corpus row.
// The tag names the caller (organization, user, role, epoch), the retrieval mode (shown on each
// corpus) and the query. Versions are read before the rows: a tag may be older than its body, never newer.
import { entityTag } from '../../http/conditional-get.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService, CorpusAccess } from './corpora.service.js';
import type { RetrievalMode } from './corpus.presenter.js';

const callerParts = (actor: Actor, epoch: number) => [actor.organizationId, actor.userId, actor.role, epoch];

export class CorpusTags {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly retrievalMode: () => RetrievalMode,
  ) {}

  /** One corpus's tag with the access its check found (the route presents that, not a second check); 404 for a corpus the caller may not read. */
  async ofCorpus(actor: Actor, corpusId: number): Promise<{ tag: string; access: CorpusAccess }> {
    const access = await this.corpora.requireCorpus(actor, corpusId, 'read');
    const { value, epoch } = await this.store.repos.readVersions.ofCorpus(corpusId, actor.userId);
    const parts = ['corpus v2 application/json', ...callerParts(actor, epoch), access.permission, JSON.stringify(access.corpus), value, this.retrievalMode()];
    return { tag: entityTag(parts), access };
  }

  /** The listing's tag; `query`: the route's parameters, defaults applied, in a fixed order. */
  async ofListing(actor: Actor, query: readonly (string | number | boolean | null)[]): Promise<string> {
    const { value, epoch } = await this.store.repos.readVersions.ofOrganization('corpora', actor.organizationId, actor.userId);
    return entityTag(['corpora v2 application/json', ...callerParts(actor, epoch), value, this.retrievalMode(), JSON.stringify(query)]);
  }
}

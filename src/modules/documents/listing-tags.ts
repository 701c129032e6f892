// The entity tags of the listings of a corpus's documents (GET /api/v2/corpora/{id}/documents and the
// fixed GET /api/corpus/{id}/document/): what decides the bytes of an answer, hashed (conditional-get.ts).
// The caller is authorised first — a check the listing then takes rather than making again, so a
// caller who may no longer read gets its 404, never a 304 — and the tag holds what that check found (organization, user, role,
// permission), the corpus's listing version (moved by triggers with every write a listing shows,
// migration 0060), the query as normalised by the route, and the representation. Reading the
// version before the rows matters: a tag may then be older than the body it names (costing a 200
// later), never newer.
import type { UnitOfWork } from '../../repositories.js';
import { entityTag } from '../../http/conditional-get.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService, CorpusAccess } from '../corpora/corpora.service.js';

/** The listings' representations: each answers its own bytes, so each has its own tags. */
export type ListingRepresentation = 'v2 application/json' | 'legacy application/json';

export class ListingTags {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
  ) {}

  /**
   * The current tag of a listing, with the access its check found: the listing takes it rather than
   * checking again. 404 for a corpus the caller may not read. `query`: the route's parameters,
   * defaults applied, in a fixed order.
   */
  async tag(
    actor: Actor,
    corpusId: number,
    representation: ListingRepresentation,
    query: readonly (string | number | boolean | null)[],
  ): Promise<{ tag: string; access: CorpusAccess }> {
    const access = await this.corpora.requireCorpus(actor, corpusId, 'read');
    const version = await this.store.repos.corpora.listingVersion(corpusId);
    return { tag: entityTag([representation, actor.organizationId, actor.userId, actor.role, access.permission, corpusId, version, JSON.stringify(query)]), access };
  }
}

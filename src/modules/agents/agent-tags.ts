// The entity tags of GET /api/v2/agents/{id} and of the agents listing (docs/api.md, "Conditional
// requests"): read from the read versions the database moves with every write these answers show
// (migration 0080), so that a 304 reads no agent row. The caller is authorised by the same read (an
// agent of their organization, not deleted: what every member may read), and the tag holds what
// decides their access: organization, user, role and permission epoch. Versions are read before the
// rows: a tag may be older than the body it names (costing a 200 later), never newer.
import { NotFound } from '../../errors.js';
import { entityTag, versionedEntityTag } from '../../http/conditional-get.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';

const callerParts = (actor: Actor, epoch: number) => [actor.organizationId, actor.userId, actor.role, epoch];

export class AgentTags {
  constructor(private readonly store: UnitOfWork) {}

  /**
   * One agent's tag, `"<version>-<hash>"`: the version first, so that If-Match (which compares the
   * agent's version) takes it; the hash moves with everything else the body shows. 404 for an agent
   * the caller may not see.
   */
  async ofAgent(actor: Actor, agentId: number): Promise<string> {
    const found = await this.store.repos.readVersions.ofAgent(actor.organizationId, agentId, actor.userId);
    if (found === undefined) throw new NotFound('agent', agentId);
    return versionedEntityTag(found.version, ['agent v2 application/json', ...callerParts(actor, found.epoch), agentId, found.value]);
  }

  /** The listing's tag; `query`: the route's parameters, defaults applied, in a fixed order. */
  async ofListing(actor: Actor, query: readonly (string | number | boolean | null)[]): Promise<string> {
    const { value, epoch } = await this.store.repos.readVersions.ofOrganization('agents', actor.organizationId, actor.userId);
    return entityTag(['agents v2 application/json', ...callerParts(actor, epoch), value, JSON.stringify(query)]);
  }
}

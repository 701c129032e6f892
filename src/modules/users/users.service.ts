import type { Database } from '../../db/database.js';
import { NotFound } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import { OrganizationsRepo } from '../organizations/organizations.repo.js';
import { presentUser } from './user.presenter.js';
import { UsersRepo } from './users.repo.js';

export class UsersService {
  constructor(private readonly database: Database) {}

  async me(actor: Actor) {
    const user = await new UsersRepo(this.database.db).findInOrganization(actor.organizationId, actor.userId);
    const organization = await new OrganizationsRepo(this.database.db).findById(actor.organizationId);
    if (!user || !organization) throw new NotFound('user', actor.userId);
    return { ...presentUser(user), organization: { id: organization.id, name: organization.name }, teams: [] };
  }
}

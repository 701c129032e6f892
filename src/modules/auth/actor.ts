import type { OrganizationRole } from '../../db/schema.js';
import type { UsersRepo } from '../users/users.repo.js';

/** Who is calling: resolved from the request's credential (bearer token, API key or session cookie) by AuthService, passed to every service. */
export interface Actor {
  userId: number;
  organizationId: number;
  email: string;
  role: OrganizationRole;
  credential: { kind: 'session' | 'api_key'; id: number };
}

/**
 * The person a job acts for (the one who started an evaluation or an import), with the role they have
 * now; undefined once they are deactivated or gone. No credential: the job acts for the user, not
 * through one of their keys or sessions.
 */
export async function actorOfUser(users: Pick<UsersRepo, 'findInOrganization'>, organizationId: number, userId: number): Promise<Actor | undefined> {
  const user = await users.findInOrganization(organizationId, userId);
  if (!user || user.deactivated_on !== null) return undefined;
  return { userId: user.id, organizationId: user.organization_id, email: user.email, role: user.role, credential: { kind: 'api_key', id: 0 } };
}

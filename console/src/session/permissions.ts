// What the signed-in role may do, so that the console does not offer what the server would refuse
// (docs/authorization.md). The server's 403 still decides; these only hide or disable with a reason.
import type { Role } from './session';

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export function atLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** Why a viewer cannot change things; shown beside a disabled control. */
export const VIEWER_REASON = 'Viewers can look but not change anything; ask an admin for the member role.';

// What the signed-in user may do to a member, as the server's user policy says
// (src/modules/users/user.policy.ts): owners and admins manage users, only owners manage owners or
// make them; nobody deactivates themselves. Each refusal has its reason, shown beside the control.
import type { CurrentUser } from '../../session/session';
import type { OrganizationRole, User } from './people-api';

const isAdmin = (me: CurrentUser) => me.role === 'owner' || me.role === 'admin';

export function mayInvite(me: CurrentUser): boolean {
  return isAdmin(me);
}

/** Why the user may not manage this member, or null when they may. */
export function whyNotManage(me: CurrentUser, member: User): string | null {
  if (!isAdmin(me)) return 'Only owners and admins manage members.';
  if (member.role === 'owner' && me.role !== 'owner') return 'Only owners manage owners.';
  if (!member.is_active) return 'Deactivated.';
  return null;
}

/** Why the user may not change this member's role here, or null. */
export function whyNotChangeRole(me: CurrentUser, member: User): string | null {
  if (member.id === me.id) return 'Your own role is changed by another owner or admin.';
  return whyNotManage(me, member);
}

/** The roles the user may give: only owners make owners. */
export function grantableRoles(me: CurrentUser): OrganizationRole[] {
  return me.role === 'owner' ? ['owner', 'admin', 'member', 'viewer'] : ['admin', 'member', 'viewer'];
}

export const INVITE_REASON = 'Only owners and admins invite and manage members.';

// Organization and team roles, ranked, and the one way a policy refusal becomes an error. Policies
// (<resource>.policy.ts) answer "may this actor do this" in one line each, using these.
import type { OrganizationRole, TeamRole } from '../../db/schema.js';
import { Forbidden } from '../../errors.js';
import type { Actor } from './actor.js';

export const ORGANIZATION_ROLES: readonly OrganizationRole[] = ['owner', 'admin', 'member', 'viewer'];
export const TEAM_ROLES: readonly TeamRole[] = ['lead', 'editor', 'viewer'];

/** Who a policy asks about: the caller, or another user whose permissions are being shown. */
export type Subject = Pick<Actor, 'userId' | 'role'>;

const RANK: Record<OrganizationRole, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

export const isAdmin = (subject: Subject): boolean => subject.role === 'owner' || subject.role === 'admin';

/** Whether role a is at least as high as role b. */
export const atLeast = (a: OrganizationRole, b: OrganizationRole): boolean => RANK[a] >= RANK[b];

/** A team role that lets its holder change the team's agents. */
export const writesInTeam = (teamRole: TeamRole | null): boolean => teamRole === 'lead' || teamRole === 'editor';

export function authorize(allowed: boolean, message: string): void {
  if (!allowed) throw new Forbidden(message);
}

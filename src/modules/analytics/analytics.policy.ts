// Who sees which figures. Owners and admins see every scope. A team's leads see their team and its
// agents (they read those agents' threads already); anyone sees their own figures as a user; a
// corpus's figures take `manage` on it (checked with the corpus's permissions). The whole
// organization and its projects are for owners and admins.
import type { TeamRole } from '../../db/schema.js';
import { isAdmin, type Subject } from '../auth/roles.js';

export const analyticsPolicy = {
  seesOrganization: (subject: Subject) => isAdmin(subject),
  seesTeam: (subject: Subject, teamRole: TeamRole | null) => isAdmin(subject) || teamRole === 'lead',
  seesUser: (subject: Subject, userId: number) => isAdmin(subject) || subject.userId === userId,
};

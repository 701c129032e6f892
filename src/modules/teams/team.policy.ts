// Who may do what to teams, one line each. Everyone in the organization sees its teams and their
// members. Anyone but a viewer creates a team (and leads it); its leads, owners and admins change it,
// delete it and manage its members; anyone leaves a team.
import type { TeamRole } from '../../db/schema.js';
import { isAdmin, type Subject } from '../auth/roles.js';

export const teamPolicy = {
  mayCreate: (subject: Subject) => subject.role !== 'viewer',
  mayManage: (subject: Subject, callerTeamRole: TeamRole | null) => isAdmin(subject) || callerTeamRole === 'lead',
  mayRemoveMember: (subject: Subject, callerTeamRole: TeamRole | null, userId: number) =>
    isAdmin(subject) || callerTeamRole === 'lead' || subject.userId === userId,
};

// Who may do what to users, one line each. Everyone in an organization reads its users. Owners and
// admins invite and manage them, but only an owner manages an owner or makes one. A user changes their
// own name and password, never raises their own role, and does not deactivate themselves.
import type { OrganizationRole } from '../../db/schema.js';
import { atLeast, isAdmin, type Subject } from '../auth/roles.js';

type Target = { id: number; role: OrganizationRole };

const manages = (subject: Subject, target: Target) => isAdmin(subject) && (target.role !== 'owner' || subject.role === 'owner');

export const userPolicy = {
  mayInvite: (subject: Subject, role: OrganizationRole) => isAdmin(subject) && (role !== 'owner' || subject.role === 'owner'),
  mayChangeName: (subject: Subject, target: Target) => subject.userId === target.id || manages(subject, target),
  mayChangeEmail: (subject: Subject, target: Target) => manages(subject, target),
  mayGrantRole: (subject: Subject, target: Target, role: OrganizationRole) =>
    manages(subject, target) && (role !== 'owner' || subject.role === 'owner') && (subject.userId !== target.id || atLeast(subject.role, role)),
  mayChangePassword: (subject: Subject, target: Target) => subject.userId === target.id,
  mayIssuePasswordToken: (subject: Subject, target: Target) => manages(subject, target),
  mayDeactivate: (subject: Subject, target: Target) => subject.userId !== target.id && manages(subject, target),
};

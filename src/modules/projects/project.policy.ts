// Who may do what to projects, one line each. Everyone in the organization sees its projects. Anyone
// but a viewer creates one (and is its first member); its members who are not viewers, owners and
// admins change it and its members; its creator, owners and admins delete it; anyone leaves one.
import { isAdmin, type Subject } from '../auth/roles.js';

const changes = (subject: Subject, isMember: boolean) => isAdmin(subject) || (isMember && subject.role !== 'viewer');

export const projectPolicy = {
  mayCreate: (subject: Subject) => subject.role !== 'viewer',
  mayChange: changes,
  mayDelete: (subject: Subject, project: { created_by: number }) =>
    isAdmin(subject) || (project.created_by === subject.userId && subject.role !== 'viewer'),
  mayRemoveUser: (subject: Subject, isMember: boolean, userId: number) => changes(subject, isMember) || subject.userId === userId,
};

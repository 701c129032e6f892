// Who may do what with datasets, metrics and evaluations: everyone in the organization reads them;
// owners, admins and members create them and run evaluations; a dataset, metric or evaluation is
// changed (and deleted, cancelled) by owners, admins and the member who created it. Viewers read.
import { isAdmin, type Subject } from '../auth/roles.js';

export const evaluationPolicy = {
  mayCreate: (subject: Subject) => subject.role !== 'viewer',
  mayChange: (subject: Subject, resource: { created_by: number | null }) =>
    isAdmin(subject) || (subject.role !== 'viewer' && resource.created_by !== null && resource.created_by === subject.userId),
};

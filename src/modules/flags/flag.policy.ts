// Everyone in an organization reads its flags; owners and admins turn them on and off.
import { isAdmin, type Subject } from '../auth/roles.js';

export const flagPolicy = {
  mayChange: (subject: Subject) => isAdmin(subject),
};

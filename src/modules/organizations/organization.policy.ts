// Everyone in an organization reads it: its settings, users, logo, configurations and model
// deployment. Owners and admins change them. Another organization is not found, whatever the role.
import { isAdmin, type Subject } from '../auth/roles.js';

export const organizationPolicy = {
  mayChange: (subject: Subject) => isAdmin(subject),
};

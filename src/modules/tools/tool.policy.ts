// Owners and admins create, change, remove, enable, disable and test tools and see their settings
// (never the secret); members and viewers see which tools exist: id, kind, name, description, enabled.
import { isAdmin, type Subject } from '../auth/roles.js';

export const toolPolicy = {
  mayManage: (subject: Subject) => isAdmin(subject),
  seesSettings: (subject: Subject) => isAdmin(subject),
};

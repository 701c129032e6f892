// Owners and admins add, change, remove and test LLM configurations and see their settings (never the
// key); members and viewers see which models exist: id, name, provider, model, is_default, context_window.
import { isAdmin, type Subject } from '../auth/roles.js';

export const llmPolicy = {
  mayManage: (subject: Subject) => isAdmin(subject),
  seesSettings: (subject: Subject) => isAdmin(subject),
};

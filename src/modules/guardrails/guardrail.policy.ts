// Owners and admins create, change and delete guardrails; everyone in the organization reads and tests
// them (a test changes nothing, and every role may ask the agents they guard).
import { isAdmin, type Subject } from '../auth/roles.js';

export const guardrailPolicy = {
  mayManage: (subject: Subject) => isAdmin(subject),
};

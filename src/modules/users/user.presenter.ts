import type { UserWithAudit } from './users.repo.js';
import type { UserView } from './users.schemas.js';

/** The fields of a user that may leave the server; the password hash is not one of them. */
export function presentUser(user: UserWithAudit): UserView {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    organization_id: user.organization_id,
    is_active: user.deactivated_on === null,
    deactivated_on: user.deactivated_on,
    created_on: user.created_on,
    created_by: user.created_by_email,
    modified_on: user.modified_on,
    modified_by: user.modified_by_email,
  };
}

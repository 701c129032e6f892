import type { UserRow } from '../../db/schema.js';
import type { UserView } from './users.schemas.js';

/** The fields of a user that may leave the server; the password hash is not one of them. */
export function presentUser(user: UserRow): UserView {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    organization_id: user.organization_id,
    is_active: user.deactivated_on === null,
    created_on: user.created_on,
    modified_on: user.modified_on,
  };
}

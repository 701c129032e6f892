// On first start, with no organization yet, creates one and its owner: from ADMIN_EMAIL and
// ADMIN_PASSWORD, or with a generated password that the caller prints once. Nothing ships with a
// default password.
import { now } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { generatePassword, hashPassword } from '../auth/password.js';
import { UsersRepo } from '../users/users.repo.js';
import { OrganizationsRepo } from './organizations.repo.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

export interface FirstStart {
  email: string;
  /** Present when no ADMIN_PASSWORD was configured: shown once, never stored in clear. */
  generatedPassword?: string;
}

export async function createFirstOwner(database: Database, config: Config): Promise<FirstStart | undefined> {
  if ((await new OrganizationsRepo(database.db).count()) > 0) return undefined;
  const email = (config.adminEmail ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const generatedPassword = config.adminPassword === undefined ? generatePassword() : undefined;
  const passwordHash = await hashPassword(config.adminPassword ?? generatedPassword!, config.passwordHashCost);
  try {
    return await database.db.transaction().execute(async (trx) => {
      // Another process may have finished first (several servers starting on one PostgreSQL).
      if ((await new OrganizationsRepo(trx).count()) > 0) return undefined;
      const at = now();
      const organization = await new OrganizationsRepo(trx).insert('Default organization', at);
      await new UsersRepo(trx, database.dialect).insert({
        organization_id: organization.id,
        email,
        first_name: '',
        last_name: '',
        role: 'owner',
        password_hash: passwordHash,
        created_on: at,
        modified_on: at,
      });
      return generatedPassword === undefined ? { email } : { email, generatedPassword };
    });
  } catch (error) {
    if (database.dialect.isUniqueViolation(error)) return undefined;
    throw error;
  }
}

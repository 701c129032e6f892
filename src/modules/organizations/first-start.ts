// On first start, with no organization yet, creates one and its owner: from ADMIN_EMAIL and
// ADMIN_PASSWORD, or with a generated password that the caller prints once. Nothing ships with a
// default password.
import { now } from '../../clock.js';
import type { Config } from '../../config.js';
import { Conflict } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import { firstOwnerPassword, type FirstOwnerPassword } from './first-owner-password.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

export interface FirstStart {
  email: string;
  /** Present when no ADMIN_PASSWORD was configured: shown once, never stored in clear. */
  generatedPassword?: string;
}

/** `password`: the owner's, when the caller began its hash earlier (see first-owner-password.ts). */
export async function createFirstOwner(store: UnitOfWork, config: Config, password: FirstOwnerPassword = firstOwnerPassword(config)): Promise<FirstStart | undefined> {
  if ((await store.repos.organizations.count()) > 0) return undefined;
  const email = (config.adminEmail ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const generatedPassword = password.generated;
  const passwordHash = await password.hash();
  try {
    return await store.transaction(async (repos) => {
      // Another process may have finished first (several servers starting on one PostgreSQL).
      if ((await repos.organizations.count()) > 0) return undefined;
      const at = now();
      const organization = await repos.organizations.insert('Default organization', at);
      await repos.users.insert({
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
    // The users' e-mail index refused the owner: another process made it at the same moment.
    if (error instanceof Conflict) return undefined;
    throw error;
  }
}

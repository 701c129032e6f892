// The way back in when an owner is locked out, from the command line of the server's host (whoever
// runs it already holds the database): a user's password reset, and an owner made again. A new
// password goes the way of the console's set-password: a one-time token, redeemed at once by the
// users service, so the password is hashed, earlier tokens dropped and every session of the user
// ended exactly as there.
import { hoursFrom, now } from '../clock.js';
import type { Config } from '../config.js';
import { generateToken, hashToken } from '../modules/auth/tokens.js';
import { createFirstOwner } from '../modules/organizations/first-start.js';
import { PASSWORD_TOKEN_PREFIX, UsersService } from '../modules/users/users.service.js';
import type { UnitOfWork } from '../repositories.js';
import { withMigratedStore } from './migrated-store.js';

/** A command that cannot do what it was asked; its message tells the administrator why. */
export class CommandRefused extends Error {}

async function setPassword(store: UnitOfWork, config: Config, userId: number, password: string): Promise<void> {
  const token = generateToken(PASSWORD_TOKEN_PREFIX);
  const at = now();
  await store.repos.passwordTokens.replace(userId, hashToken(token), at, hoursFrom(at, config.passwordTokenTtlHours));
  await new UsersService(store, config).setPasswordWithToken(token, password);
}

/** reset-password: gives an active user a new password and ends their sessions. */
export function resetPassword(config: Config, email: string, password: string): Promise<void> {
  return withMigratedStore(config, async (store) => {
    const user = await store.repos.users.findByEmail(email);
    if (!user) throw new CommandRefused(`No user with e-mail ${email.toLowerCase()}`);
    if (user.deactivated_on !== null) {
      throw new CommandRefused(`The user ${user.email} is deactivated: an owner reactivates them in the console, or make them owner again with create-owner`);
    }
    await setPassword(store, config, user.id, password);
  });
}

export type OwnerOutcome =
  /** No organization yet: the first start's organization and owner were made. */
  | 'first-start'
  /** A new user, owner of the server's first organization. */
  | 'created'
  /** An existing user, now an active owner of their organization. */
  | 'restored';

/**
 * create-owner: makes `email` an active owner with `password`, whatever it was before. A new
 * address becomes an owner of the first organization (as on the first start); an existing user of
 * any organization is reactivated and made owner there. Either way the password is set and earlier
 * sessions end.
 */
export function createOwner(config: Config, email: string, password: string): Promise<OwnerOutcome> {
  return withMigratedStore(config, async (store) => {
    if (await createFirstOwner(store, { ...config, adminEmail: email, adminPassword: password })) return 'first-start';
    const existing = await store.repos.users.findByEmail(email);
    const userId = existing ? await restoreOwner(store, existing.organization_id, existing.id) : await addOwner(store, email);
    await setPassword(store, config, userId, password);
    return existing ? 'restored' : 'created';
  });
}

async function restoreOwner(store: UnitOfWork, organizationId: number, userId: number): Promise<number> {
  await store.transaction(async (repos) => {
    await repos.organizations.lock(organizationId);
    await repos.users.update(organizationId, userId, { role: 'owner', deactivated_on: null, modified_on: now() });
  });
  return userId;
}

async function addOwner(store: UnitOfWork, email: string): Promise<number> {
  const organizationId = await store.repos.organizations.firstId();
  if (organizationId === undefined) throw new CommandRefused('The server has no organization');
  const at = now();
  // No password yet: it is set next, the way every password is.
  const user = await store.repos.users.insert({ organization_id: organizationId, email, first_name: '', last_name: '', role: 'owner', password_hash: null, created_on: at, modified_on: at });
  return user.id;
}

// The first owner's password and its hash. The hash (scrypt, in libuv's thread pool) can begin as soon
// as the configuration is known: `serve` begins it before it loads the server's modules, so that it
// runs on another core while the main thread loads, migrates and builds the routes, instead of after
// them. On a later start, when the owner exists, that one hash is spent for nothing in the thread pool.
import type { Config } from '../../config.js';
import { generatePassword, hashPassword } from '../auth/password.js';

export interface FirstOwnerPassword {
  /** Present when no ADMIN_PASSWORD was configured: shown once, never stored in clear. */
  generated: string | undefined;
  /** Begun when the first caller asks for it, then shared. */
  hash(): Promise<string>;
}

export function firstOwnerPassword(config: Pick<Config, 'adminPassword' | 'passwordHashCost'>): FirstOwnerPassword {
  const generated = config.adminPassword === undefined ? generatePassword() : undefined;
  const password = config.adminPassword ?? generated!;
  let hashing: Promise<string> | undefined;
  return {
    generated,
    hash() {
      hashing ??= hashPassword(password, config.passwordHashCost);
      return hashing;
    },
  };
}

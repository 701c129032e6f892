// A write that a unique constraint refused is the client's conflict (409), said in its terms; any
// other failure stays what it is. Repositories translate at the statement that can collide.
import { Conflict } from '../errors.js';
import type { Dialect } from './dialect.js';

export function conflictIfDuplicate(dialect: Dialect, error: unknown, message: string): unknown {
  return dialect.isUniqueViolation(error) ? new Conflict(message) : error;
}

/** For names unique in an organization: `A team named "Support" already exists`. */
export function nameTaken(dialect: Dialect, error: unknown, aNoun: string, name: unknown): unknown {
  const article = aNoun.charAt(0).toUpperCase() + aNoun.slice(1);
  return conflictIfDuplicate(dialect, error, `${article} named "${String(name ?? '')}" already exists`);
}

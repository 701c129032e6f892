// Bearer tokens are 256 random bits, so a fast hash is as safe as a slow one for looking them up:
// SHA-256 keeps an authenticated request as cheap as an anonymous one.
import { createHash, randomBytes } from 'node:crypto';

export const SESSION_TOKEN_PREFIX = 'aps_';
export const API_KEY_PREFIX = 'apk_';

export function generateToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

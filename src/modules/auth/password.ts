// Passwords are hashed with scrypt, which is memory-hard, and verified in constant time. The stored
// form carries its parameters, so the cost can rise later without breaking existing hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const cost = options.N ?? 1 << 15;
  const maxmem = 256 * cost * BLOCK_SIZE;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Hashes with N = 2^log2Cost; returns "scrypt$log2Cost$r$p$salt$hash". */
export async function hashPassword(password: string, log2Cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: 1 << log2Cost, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', log2Cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2Cost, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !log2Cost || !r || !p || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: 1 << Number(log2Cost), r: Number(r), p: Number(p) });
  return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
}

/** Spends the time of one verification, so that an unknown e-mail answers as slowly as a wrong password. */
export async function spendVerificationTime(log2Cost: number): Promise<void> {
  await derive('', Buffer.alloc(16), { N: 1 << log2Cost, r: BLOCK_SIZE, p: PARALLELISM });
}

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

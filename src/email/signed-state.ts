// The OAuth `state` of an e-mail authorization: the pending authorization's nonce and the time it
// expires, signed with HMAC-SHA256 under a key derived (HKDF) from the server's secret key. A state
// that was altered, signed with another key, or is past its time is refused before the database is
// asked; the nonce then finds the pending row, which the callback marks used (single use).
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export interface StatePayload {
  nonce: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export type StateRefusal = 'malformed' | 'forged' | 'expired';

export class StateSigner {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), 'agent-platform', 'email-indexing state v1', 32));
  }

  static newNonce(): string {
    return randomBytes(24).toString('base64url');
  }

  sign(payload: StatePayload): string {
    const body = `${payload.nonce}.${payload.expiresAt.toString(36)}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a state this server signed and that has not expired at `nowMs`, or why not. */
  verify(state: string, nowMs: number): StatePayload | StateRefusal {
    const parts = state.split('.');
    if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]{1,64}$/.test(part))) return 'malformed';
    const [nonce, expires, mac] = parts as [string, string, string];
    const expected = Buffer.from(this.mac(`${nonce}.${expires}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
    const expiresAt = parseInt(expires, 36);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= nowMs) return 'expired';
    return { nonce, expiresAt };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

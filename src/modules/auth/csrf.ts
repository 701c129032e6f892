// The CSRF value of a browser session: HMAC-SHA256 of the session token's hash, under a key derived
// (HKDF) from the server's secret key. Bound to its session, so a value that a sibling subdomain
// plants in the browser (its own session's, say) does not pass for the victim's session; and
// derived, not stored, so any process of the deployment that shares SECRET_KEY checks it, and it
// ends with its session. Former secret keys (SECRET_KEY_PREVIOUS) still verify, so rotating the key
// does not cut the browser sessions already open.
import { createHmac, hkdfSync } from 'node:crypto';
import { sameText } from '../../secrets/same-text.js';

function deriveKey(secretKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), 'agent-platform', 'session csrf v1', 32));
}

function mac(key: Buffer, sessionHash: string): string {
  return createHmac('sha256', key).update(sessionHash).digest('base64url');
}

export class CsrfTokens {
  private readonly keys: Buffer[];

  constructor(secretKey: string, previousKeys: readonly string[] = []) {
    this.keys = [secretKey, ...previousKeys].map(deriveKey);
  }

  /** The CSRF value of the session whose token hashes to `sessionHash`. */
  issue(sessionHash: string): string {
    return mac(this.keys[0]!, sessionHash);
  }

  /** Whether `value` is that session's CSRF value, under the current or a former key; in constant time. */
  verify(sessionHash: string, value: string): boolean {
    // Every key is tried, whichever matches: the time does not tell which key a value was made under.
    let valid = false;
    for (const key of this.keys) valid = sameText(value, mac(key, sessionHash)) || valid;
    return valid;
  }
}

// The OAuth `state` of an e-mail authorization: the pending authorization's nonce, the time it
// expires and a tag of the mailbox it expects, signed with HMAC-SHA256 under a key derived (HKDF) from
// the server's secret key. A state that was altered, signed with another key, or is past its time is
// refused before the database is asked; the nonce then finds the pending row, which the callback marks
// used (single use). The callback is public and the consent happens in whatever browser opens the URL,
// so the state also names the mailbox that may complete it: the callback links only when the
// provider's own identity of the signed-in account matches. The tag is a keyed digest of the address
// (not the address itself): the state travels through the provider and the browser's history, and a
// plain hash of an address could be checked against a list of guesses.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { sameText } from '../../../secrets/same-text.js';

export interface StatePayload {
  nonce: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The keyed digest of the expected mailbox's address (see `mailboxTag`). */
  mailboxTag: string;
}

export type StateRefusal = 'malformed' | 'forged' | 'expired';

/** Addresses compare without case and surrounding space, as providers and users write them differently. */
export const normalizeAddress = (address: string): string => address.trim().toLowerCase();

export class StateSigner {
  private readonly key: Buffer;
  private readonly mailboxKey: Buffer;

  constructor(secretKey: string) {
    const secret = Buffer.from(secretKey, 'utf8');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'agent-platform', 'email-indexing state v1', 32));
    this.mailboxKey = Buffer.from(hkdfSync('sha256', secret, 'agent-platform', 'email-indexing expected mailbox v1', 32));
  }

  static newNonce(): string {
    return randomBytes(24).toString('base64url');
  }

  /** A state for the authorization `nonce`, good until `expiresAt`, that only the mailbox `expectedMailbox` may complete. */
  sign(nonce: string, expiresAt: number, expectedMailbox: string): string {
    const body = `${nonce}.${expiresAt.toString(36)}.${this.mailboxTag(expectedMailbox)}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a state this server signed and that has not expired at `nowMs`, or why not. */
  verify(state: string, nowMs: number): StatePayload | StateRefusal {
    const parts = state.split('.');
    if (parts.length !== 4 || parts.some((part) => !/^[A-Za-z0-9_-]{1,64}$/.test(part))) return 'malformed';
    const [nonce, expires, mailboxTag, mac] = parts as [string, string, string, string];
    if (!sameText(mac, this.mac(`${nonce}.${expires}.${mailboxTag}`))) return 'forged';
    const expiresAt = parseInt(expires, 36);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= nowMs) return 'expired';
    return { nonce, expiresAt, mailboxTag };
  }

  /** Whether any of the addresses the provider names for the signed-in account is the one the state expects. */
  expects(payload: StatePayload, addresses: readonly string[]): boolean {
    return addresses.some((address) => sameText(this.mailboxTag(address), payload.mailboxTag));
  }

  private mailboxTag(address: string): string {
    return createHmac('sha256', this.mailboxKey).update(normalizeAddress(address)).digest('base64url');
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

// The OAuth `state` of an e-mail authorization: the pending authorization's nonce, the time it
// expires and a tag of the mailbox it expects, signed with HMAC-SHA256 under a key derived (HKDF) from
// the server's secret key. A state that was altered, signed with another key, or is past its time is
// refused before the database is asked; the nonce then finds the pending row, which the callback marks
// used (single use). The callback is public and the consent happens in whatever browser opens the URL,
// so the state also names the mailbox that may complete it: the callback links only when the
// provider's own identity of the signed-in account matches. The tag is a keyed digest of the address
// (not the address itself): the state travels through the provider and the browser's history, and a
// plain hash of an address could be checked against a list of guesses. A state may also carry the
// path of this server's own pages to send the browser back to once the callback ends (the console's
// sources page): signed with the rest, so nobody can point the callback elsewhere.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { sameText } from '../../../secrets/same-text.js';

export interface StatePayload {
  nonce: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The keyed digest of the expected mailbox's address (see `mailboxTag`). */
  mailboxTag: string;
  /** The path to return to after the callback (see return-path.ts), when the authorization named one. */
  returnTo?: string;
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

  /**
   * A state for the authorization `nonce`, good until `expiresAt`, that only the mailbox `expectedMailbox`
   * may complete; with `returnTo`, a fifth part (the path, base64url) before the signature.
   */
  sign(nonce: string, expiresAt: number, expectedMailbox: string, returnTo?: string): string {
    const parts = [nonce, expiresAt.toString(36), this.mailboxTag(expectedMailbox)];
    if (returnTo !== undefined) parts.push(Buffer.from(returnTo, 'utf8').toString('base64url'));
    const body = parts.join('.');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a state this server signed and that has not expired at `nowMs`, or why not. */
  verify(state: string, nowMs: number): StatePayload | StateRefusal {
    const signed = this.signedParts(state);
    if (typeof signed === 'string') return signed;
    const [nonce, expires, mailboxTag, returnPart] = signed;
    const expiresAt = parseInt(expires!, 36);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= nowMs) return 'expired';
    return { nonce: nonce!, expiresAt, mailboxTag: mailboxTag!, ...(returnPart === undefined ? {} : { returnTo: Buffer.from(returnPart, 'base64url').toString('utf8') }) };
  }

  /**
   * The return path of a state this server signed, even one expired or already used: where to tell the
   * browser why its callback failed. Undefined for a state not signed here, or one without a path.
   */
  returnPathOf(state: string): string | undefined {
    const signed = this.signedParts(state);
    if (typeof signed === 'string' || signed[3] === undefined) return undefined;
    return Buffer.from(signed[3], 'base64url').toString('utf8');
  }

  /** The parts before the signature, when the state is well formed and its signature is this server's. */
  private signedParts(state: string): string[] | Exclude<StateRefusal, 'expired'> {
    const parts = state.split('.');
    if (parts.length !== 4 && parts.length !== 5) return 'malformed';
    // The return path's part is longer than the others: a path of at most 200 ASCII characters (return-path.ts).
    if (parts.some((part, index) => !(index === 3 && parts.length === 5 ? /^[A-Za-z0-9_-]{1,400}$/ : /^[A-Za-z0-9_-]{1,64}$/).test(part))) return 'malformed';
    const mac = parts.pop()!;
    if (!sameText(mac, this.mac(parts.join('.')))) return 'forged';
    return parts;
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

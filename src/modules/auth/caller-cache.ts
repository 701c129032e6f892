// Callers already resolved, by the hash of their token, valid while the credentials epoch stays where
// it was when they were read. The epoch is a row the database moves in the same transaction as every
// change that can end a credential (migration 0009), and authentication reads it on every request:
// a key revoked, a session ended or a user deactivated by any process is seen by the next request
// of every process, exactly as when each request looked the caller up.
import { LRUCache } from 'lru-cache';
import type { Actor } from './actor.js';

export interface CachedCaller {
  readonly actor: Actor;
  /** When the credential expires (ms since the epoch); Infinity for a key without an expiry. */
  readonly expiresAtMs: number;
  /** When an API key's last use was last written (ms); sessions do not record it. */
  lastUsedMs: number;
}

/** Callers kept; past it the least recently used go first (a server has far fewer active credentials). */
const CAPACITY = 10_000;

export class CallerCache {
  /** The epoch the entries were read under; undefined until the first read. */
  private epoch: number | undefined;
  private readonly entries: LRUCache<string, CachedCaller>;

  constructor(capacity = CAPACITY) {
    // No time to live here: an entry is ended by the epoch, and its credential's expiry is checked by
    // the caller against the request's time.
    this.entries = new LRUCache({ max: capacity });
  }

  /**
   * The caller of this token hash, if it was resolved under the epoch just read. Any other epoch
   * empties the cache first: something changed since, and nobody knows what.
   */
  find(epoch: number, hash: string): CachedCaller | undefined {
    if (epoch !== this.epoch) {
      this.entries.clear();
      this.epoch = epoch;
      return undefined;
    }
    return this.entries.get(hash);
  }

  /**
   * Keeps a caller looked up after reading `epoch`. Dropped if the cache has meanwhile moved to
   * another epoch: the lookup may predate the change that moved it.
   */
  remember(epoch: number, hash: string, caller: CachedCaller): void {
    if (epoch === this.epoch) this.entries.set(hash, caller);
  }
}

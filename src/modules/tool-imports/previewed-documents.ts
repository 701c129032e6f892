// Documents a preview fetched from an address, kept a short while in memory so that the import which
// follows can name one (`document_ref`) instead of fetching the address a second time: the console
// previews a document, its user chooses operations, then imports. A reference is opaque, bound to
// the organization and the address it was fetched for, used once, and forgotten after REF_TTL_MS or
// when newer documents need the room (a byte budget). One the server does not know (forgotten, a
// restart, another server process) is no error: the import fetches the address, as without one.
import { randomBytes } from 'node:crypto';

/** How long a previewed document is kept for its import. */
export const REF_TTL_MS = 10 * 60_000;

interface Kept {
  organizationId: number;
  url: string;
  bytes: Buffer;
  expiresAt: number;
}

export class PreviewedDocuments {
  /** By reference, oldest first (a Map keeps the order of insertion). */
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    /** Most bytes kept in all: the oldest documents leave first; a larger one is not kept. */
    private readonly maxBytes: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Keeps the bytes fetched from `url` for the organization: the reference to import them by, or null when they do not fit. */
  keep(organizationId: number, url: string, bytes: Buffer): string | null {
    this.forgetExpired();
    if (bytes.length > this.maxBytes) return null;
    for (const [ref, old] of this.kept) {
      if (this.bytes + bytes.length <= this.maxBytes) break;
      this.forget(ref, old);
    }
    const ref = randomBytes(18).toString('base64url');
    this.kept.set(ref, { organizationId, url, bytes, expiresAt: this.clock() + REF_TTL_MS });
    this.bytes += bytes.length;
    // Forgotten when it expires even if no preview or import comes meanwhile.
    setTimeout(() => this.forgetExpired(), REF_TTL_MS + 1).unref();
    return ref;
  }

  /** The bytes kept under `ref` for this organization and address, given once; undefined otherwise. */
  take(organizationId: number, url: string, ref: string): Buffer | undefined {
    this.forgetExpired();
    const kept = this.kept.get(ref);
    if (kept === undefined || kept.organizationId !== organizationId || kept.url !== url) return undefined;
    this.forget(ref, kept);
    return kept.bytes;
  }

  private forgetExpired(): void {
    const at = this.clock();
    for (const [ref, kept] of this.kept) if (kept.expiresAt <= at) this.forget(ref, kept);
  }

  private forget(ref: string, kept: Kept): void {
    this.kept.delete(ref);
    this.bytes -= kept.bytes.length;
  }
}

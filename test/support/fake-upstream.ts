// What the fakes of outside services (fake-graph.ts, fake-mailboxes.ts) share: a failure a test sets
// on a route (a status, Retry-After, how many times), and requests held until the test releases them,
// with the event of one being held, so that a test waits for the request it means rather than polling.

/** A JSON answer: status, body and extra headers. */
export type Json = (status: number, value: unknown, headers?: Record<string, string>) => void;

export interface Failure {
  status: number;
  retryAfter?: string;
  /** How many requests fail this way; Infinity: every one. */
  times: number;
}

/** Answers the failure (and counts it down) while it has times left; false when the request goes on. */
export function failing(failure: Failure | undefined, json: Json): boolean {
  if (!failure || failure.times <= 0) return false;
  failure.times--;
  json(failure.status, { error: { code: 'failure', message: `Failing with ${failure.status}` } }, failure.retryAfter === undefined ? {} : { 'retry-after': failure.retryAfter });
  return true;
}

/** Requests held until `release()`. */
export class HeldRequests {
  private readonly waiting: (() => void)[] = [];
  private readonly held: string[] = [];
  private readonly onHeld: ((name: string) => void)[] = [];

  /** Holds the request named `name` until `release()`. */
  async hold(name: string): Promise<void> {
    const released = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held.push(name);
    for (const tell of this.onHeld.splice(0)) tell(name);
    await released;
  }

  release(): void {
    this.held.length = 0;
    for (const go of this.waiting.splice(0)) go();
  }

  /** The name of a held request: at once when one is held now, otherwise when the next one is. */
  whenHeld(): Promise<string> {
    const now = this.held[0];
    return now !== undefined ? Promise.resolve(now) : new Promise((resolve) => this.onHeld.push(resolve));
  }
}

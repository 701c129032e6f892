// The time as the server records it. It reads the system clock, unless a test has put a clock of its
// own in place (useClock), which moves only when the test moves it: tests that need "later" step the
// clock rather than wait for it.

let readMs: () => number = Date.now;

/** The current time as the API writes it: ISO 8601, UTC, milliseconds. */
export function now(): string {
  return new Date(readMs()).toISOString();
}

/** The current time in milliseconds since 1970, from the same clock. */
export function nowMs(): number {
  return readMs();
}

/** Puts a clock in place of the system's; returns what puts the previous one back. */
export function useClock(read: () => number): () => void {
  const previous = readMs;
  readMs = read;
  return () => {
    readMs = previous;
  };
}

export function hoursFrom(start: string, hours: number): string {
  return new Date(Date.parse(start) + hours * 3_600_000).toISOString();
}

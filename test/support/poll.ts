// Waiting for a state that a background job reaches and that no event announces (a document processed,
// a sync ended): the state is read again until it holds, within a bound, and the last reading explains
// a timeout.

export interface PollOptions {
  timeoutMs?: number;
  /** Pause between two readings. */
  everyMs?: number;
}

/** Reads until `done` holds of the reading, and returns it; throws `explain(last reading)` past the timeout. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, explain: (value: T) => string, options: PollOptions = {}): Promise<T> {
  const { timeoutMs = 20_000, everyMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(explain(value));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

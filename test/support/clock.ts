// A clock the test moves by hand (see src/clock.ts): starts at the present, then stands still.
import { useClock } from '../../src/clock.js';

export function steppedClock() {
  let ms = Date.now();
  const restore = useClock(() => ms);
  return {
    /** Moves the clock on, so that what happens next is recorded as later. */
    step(byMs = 1000) {
      ms += byMs;
    },
    restore,
  };
}

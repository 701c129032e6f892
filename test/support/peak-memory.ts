// Watches the process while some work runs: its peak resident memory (all threads), and how many
// turns the event loop made meanwhile (a loop blocked by the work would make almost none).
import { readFileSync, writeFileSync } from 'node:fs';

const MIB = 1024 * 1024;

/** Linux keeps the process's peak (VmHWM); writing 5 to clear_refs resets it to the current size. */
function resetKernelPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function kernelPeak(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

export interface Watched<T> {
  outcome: PromiseSettledResult<T>;
  /** Highest resident memory seen during the work, above what it was when the work started. */
  peakAboveStartMb: number;
  /** Turns of the event loop during the work. */
  loopTurns: number;
}

export async function watchProcess<T>(work: () => Promise<T>): Promise<Watched<T>> {
  const start = process.memoryUsage.rss();
  const kernel = resetKernelPeak();
  let peak = start;
  let loopTurns = 0;
  let running = true;
  const turn = () => {
    loopTurns++;
    peak = Math.max(peak, process.memoryUsage.rss());
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  const [outcome] = await Promise.allSettled([work()]);
  running = false;
  if (kernel) peak = Math.max(peak, kernelPeak());
  return { outcome: outcome!, peakAboveStartMb: (peak - start) / MIB, loopTurns };
}

// Memory of a child process, from /proc (Linux): its resident set (VmRSS) now, and its peak
// (VmHWM). Writing "5" to /proc/<pid>/clear_refs resets the peak to the current resident set
// (Linux 4.0+, for a process of the same user), so the peak of one request can be read exactly.
// Where that is refused, VmRSS sampled every few milliseconds stands in for it.
import { readFileSync, writeFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM); undefined where it cannot be read. */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resets the process's VmHWM to its current VmRSS; false when the system does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface MemoryPeak {
  /** VmRSS just before, in MB. */
  idleMb: number;
  /** The highest resident set during the measured span, in MB. */
  peakMb: number;
  /** How the peak was read: "VmHWM" (exact) or "sampled VmRSS" (may miss a short spike). */
  method: 'VmHWM' | 'sampled VmRSS';
}

const SAMPLE_MS = 5;
const kbToMb = (kb: number) => kb / 1024;

/**
 * Watches a process's memory over a span: reads its idle resident set, resets its peak, samples
 * VmRSS while `during` runs, and returns the larger of the sampled maximum and VmHWM.
 */
export async function watchPeakMemory<T>(pid: number, during: () => Promise<T>): Promise<{ result: T; memory: MemoryPeak }> {
  const idleKb = statusKb(pid, 'VmRSS');
  if (idleKb === undefined) throw new Error(`cannot read /proc/${pid}/status: the process has exited, or this is not Linux (the memory figures need /proc)`);
  const exact = resetPeak(pid);
  let sampledKb = idleKb;
  const sampler = setInterval(() => {
    const kb = statusKb(pid, 'VmRSS');
    if (kb !== undefined && kb > sampledKb) sampledKb = kb;
  }, SAMPLE_MS);
  try {
    const result = await during();
    const hwmKb = exact ? statusKb(pid, 'VmHWM') : undefined;
    const peakKb = Math.max(sampledKb, hwmKb ?? 0, statusKb(pid, 'VmRSS') ?? 0);
    return { result, memory: { idleMb: kbToMb(idleKb), peakMb: kbToMb(peakKb), method: hwmKb === undefined ? 'sampled VmRSS' : 'VmHWM' } };
  } finally {
    clearInterval(sampler);
  }
}

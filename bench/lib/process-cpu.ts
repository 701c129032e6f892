// CPU time a child process has used, from /proc (Linux). Throughput says how fast the pair load
// generator + server went; CPU time per request says what the server itself spent, which stays
// meaningful when the load generator, not the server, is the bottleneck (as for the bare route).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2_000 }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds the process has used so far; undefined where /proc is not available. */
export function processCpuSeconds(pid: number): number | undefined {
  return cpuSecondsOf(`/proc/${pid}/stat`);
}

/**
 * The same for the process's main thread alone (its event loop, where Node runs JavaScript and the
 * SQLite driver): the bound of a rate when its other threads (extraction, garbage collection, file
 * writes) have CPU to spare, which a loaded machine hides in the wall-clock figures.
 */
export function mainThreadCpuSeconds(pid: number): number | undefined {
  return cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuSecondsOf(statFile: string): number | undefined {
  try {
    const stat = readFileSync(statFile, 'utf8');
    // The command name (field 2) may hold spaces; the fields after it are space-separated.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, so 12th and 13th after the name.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / clockTicksPerSecond() : undefined;
  } catch {
    return undefined;
  }
}

import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export interface MachineFacts {
  node: string;
  os: string;
  cpuCount: number;
  cpuModel: string;
  memoryGiB: number;
  /** Runnable processes averaged over the last minute: above ~0.5 before a run, something else competes for the CPUs. */
  loadAverage1m: number;
}

export function loadAverage1m(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function describeMachine(): MachineFacts {
  const cores = cpus();
  return {
    node: process.version,
    os: `${platform()} ${release()}`,
    cpuCount: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    loadAverage1m: loadAverage1m(),
  };
}

export function formatMachine(facts: MachineFacts): string {
  return [
    `node ${facts.node}`,
    `${facts.cpuCount} CPU${facts.cpuCount === 1 ? '' : 's'}: ${facts.cpuModel}`,
    `${facts.memoryGiB} GiB memory`,
    facts.os,
    `load average ${facts.loadAverage1m}`,
  ].join(' | ');
}

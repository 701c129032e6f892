import { cpus, platform, release, totalmem } from 'node:os';

export interface MachineFacts {
  node: string;
  os: string;
  cpuCount: number;
  cpuModel: string;
  memoryGiB: number;
}

export function describeMachine(): MachineFacts {
  const cores = cpus();
  return {
    node: process.version,
    os: `${platform()} ${release()}`,
    cpuCount: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  };
}

export function formatMachine(facts: MachineFacts): string {
  return [
    `node ${facts.node}`,
    `${facts.cpuCount} CPU${facts.cpuCount === 1 ? '' : 's'}: ${facts.cpuModel}`,
    `${facts.memoryGiB} GiB memory`,
    facts.os,
  ].join(' | ');
}

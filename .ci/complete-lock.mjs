// Adds to package-lock.json the per-platform optional packages of rollup that a registry without them
// leaves out, so that `npm ci` finds every optional dependency listed (it installs only the one of
// the machine it runs on, by the os/cpu/libc fields).
import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pk = lock.packages;
const rollup = pk['node_modules/rollup'];
const CPU = { 'arm-eabi': 'arm', arm64: 'arm64', x64: 'x64', arm: 'arm', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x', ia32: 'ia32' };
let added = 0;
for (const [name, version] of Object.entries(rollup.optionalDependencies)) {
  if (!name.startsWith('@rollup/rollup-')) continue;
  const m = [name, ...name.slice('@rollup/rollup-'.length).split('-')];
  const key = `node_modules/${name}`;
  if (pk[key]) continue;
  let [, os, cpu, abi] = m;
  if (os === 'android' && cpu === 'arm' && abi === 'eabi') abi = undefined;
  const entry = { version, cpu: [CPU[cpu] ?? cpu] };
  if (os === 'linux' && abi) entry.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
  Object.assign(entry, { license: 'MIT', optional: true, os: [os === 'win32' ? 'win32' : os] });
  pk[key] = entry;
  added++;
}
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added}`);

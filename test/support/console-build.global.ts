// Vitest's global setup: the console built into dist/console/ once, before any test file runs, when its
// sources changed since the last build (the same rule as `npm start`). The browser tests serve it;
// building it once here keeps files running side by side from building it at the same time.
// CONSOLE_DIR names a console built elsewhere: then nothing is built here.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default async function buildConsole(): Promise<void> {
  if (process.env.CONSOLE_DIR) return;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  // @ts-expect-error: a script of the build, in JavaScript, without type declarations.
  const { buildConsoleIfStale } = (await import('../../scripts/build-console.mjs')) as {
    buildConsoleIfStale(root: string, options: { force: boolean }): Promise<string | undefined>;
  };
  const done = await buildConsoleIfStale(root, { force: false });
  if (done !== undefined) process.stderr.write(`${done}\n`);
}

// Closes the run with one plain line, "Tests: N passed, N failed", that any CI can read.
import type { Reporter } from 'vitest/reporters';

type Finished = Parameters<NonNullable<Reporter['onFinished']>>;

function count(tasks: Finished[0] = []): { passed: number; failed: number; skipped: number } {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const visit = (task: (typeof tasks)[number] | { type: string; tasks?: unknown[]; result?: { state?: string } }) => {
    const node = task as { type: string; tasks?: unknown[]; result?: { state?: string }; mode?: string };
    if (node.type === 'test') {
      if (node.result?.state === 'pass') totals.passed++;
      else if (node.result?.state === 'fail') totals.failed++;
      else totals.skipped++;
    }
    for (const child of node.tasks ?? []) visit(child as typeof node);
  };
  for (const file of tasks) visit(file);
  return totals;
}

export default class SummaryReporter implements Reporter {
  onFinished(files: Finished[0], errors: Finished[1]): void {
    const { passed, failed, skipped } = count(files);
    const unhandled = errors?.length ? ` (${errors.length} unhandled errors)` : '';
    // After the default reporter's own summary, as the last line of the run.
    setImmediate(() => process.stdout.write(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped${unhandled}\n`));
  }
}

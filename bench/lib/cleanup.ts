// Everything a benchmark starts (servers, temporary folders) registers how to undo it here, so that
// a failure at any step, or Ctrl-C, still stops the servers and removes the folders.

interface CleanupStep {
  label: string;
  run: () => Promise<void> | void;
}

export class CleanupStack {
  private readonly steps: CleanupStep[] = [];

  /** Registers an undo step; steps run in reverse order of registration (last started, first stopped). */
  defer(label: string, run: () => Promise<void> | void): void {
    this.steps.push({ label, run });
  }

  /** Runs every step once. A step that fails is reported and does not stop the others. */
  async runAll(): Promise<void> {
    for (let step = this.steps.pop(); step !== undefined; step = this.steps.pop()) {
      try {
        await step.run();
      } catch (error) {
        process.stderr.write(`cleanup "${step.label}" failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }
}

import type { BenchConfig } from './bench-config.js';
import type { CleanupStack } from './cleanup.js';
import type { SuiteReport } from './report.js';

export interface SuiteContext {
  config: BenchConfig;
  /** Register here how to undo what the suite starts; run.ts runs it when the suite ends or fails. */
  cleanup: CleanupStack;
  /** Progress messages, to stderr, so that stdout holds only the results. */
  log(message: string): void;
}

export interface BenchSuite {
  /** Selects the suite on the command line: `npm run bench -- <name>`. */
  name: string;
  description: string;
  /** Upper bound on the suite's running time; past it the run is stopped as hung. */
  timeBudgetSeconds(config: BenchConfig): number;
  run(context: SuiteContext): Promise<SuiteReport>;
}

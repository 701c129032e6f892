// What a running evaluation tells as it goes, in this process: each query answered and the end of
// the run. Tests and waiting clients listen here instead of polling; the database rows remain the
// truth (GET /api/v2/evaluations/{id} reads them), and another process's runs are not told here.
import { EventEmitter } from 'node:events';
import type { EvaluationStatus } from '../../db/schema.js';

export interface ProgressUpdate {
  organization_id: number;
  evaluation_id: number;
  status: EvaluationStatus;
  answered: number;
  total: number;
}

export class EvaluationProgress {
  private readonly events = new EventEmitter().setMaxListeners(0);

  tell(update: ProgressUpdate): void {
    this.events.emit('progress', update);
  }

  /** Calls the listener on every update; returns what stops listening. */
  listen(listener: (update: ProgressUpdate) => void): () => void {
    this.events.on('progress', listener);
    return () => this.events.off('progress', listener);
  }

  /** Resolves with the first update of the evaluation that satisfies the predicate. */
  waitFor(evaluationId: number, predicate: (update: ProgressUpdate) => boolean): Promise<ProgressUpdate> {
    return new Promise((resolve) => {
      const stop = this.listen((update) => {
        if (update.evaluation_id === evaluationId && predicate(update)) {
          stop();
          resolve(update);
        }
      });
    });
  }
}

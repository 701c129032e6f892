// Starts an extraction thread, from the compiled script or its source (src/threads/script-thread.ts).
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startScriptThread } from '../threads/script-thread.js';

export function startExtractionThread(resourceLimits: ResourceLimits): Worker {
  return startScriptThread(new URL('./extraction-thread.js', import.meta.url), resourceLimits);
}

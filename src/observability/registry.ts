// The process's metrics registry: where features register their own Prometheus metrics, once, at
// import. The metrics endpoint serves it together with the metrics each app collects at scrape time.
//
// For example, the agent runtime's model calls and tokens (to come) are declared here as
//
//   export const modelCalls = new Counter({ name: 'agent_platform_model_calls_total',
//     help: 'Calls to language models', labelNames: ['provider', 'model', 'outcome'], registers: [processMetrics] });
//
// and counted where the call is made: `modelCalls.inc({ provider, model, outcome: 'ok' })`. Labels
// must stay few in values: a provider or a model, never an organization, a user or an id.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { recordEventLoopDelay } from './event-loop-delay.js';

/** Metrics of the whole process: Node's own (memory, CPU, event loop, GC) and those features declare. */
export const processMetrics = new Registry();

let defaultsCollected = false;

/** Node's process metrics and the event loop's delay, registered on first use: once per process, however many apps it builds. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processMetrics });
  recordEventLoopDelay(processMetrics);
}

// Prometheus metrics of the runtime, registered once per process (see src/observability/registry.ts).
// Labels are few in values: the provider and the outcome, never a model name typed by a user, an
// organization or an id.
import { Counter, Histogram } from 'prom-client';
import { processMetrics } from '../../observability/registry.js';

export type AnswerOutcome = 'completed' | 'failed' | 'timeout' | 'cancelled';

export const modelCalls = new Counter({
  name: 'agent_platform_model_calls_total',
  help: 'Answers asked of language models (offline: the built-in answerer), by provider and outcome',
  labelNames: ['provider', 'outcome'],
  registers: [processMetrics],
});

export const modelTokens = new Counter({
  name: 'agent_platform_model_tokens_total',
  help: 'Tokens of answers, by provider and kind (prompt or completion)',
  labelNames: ['provider', 'kind'],
  registers: [processMetrics],
});

const SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

export const answerSeconds = new Histogram({
  name: 'agent_platform_answer_seconds',
  help: 'Time from the question to the end of the answer',
  labelNames: ['provider'],
  buckets: SECONDS,
  registers: [processMetrics],
});

export const firstTokenSeconds = new Histogram({
  name: 'agent_platform_answer_first_token_seconds',
  help: 'Time from the question to the first piece of the answer',
  labelNames: ['provider'],
  buckets: SECONDS,
  registers: [processMetrics],
});

export function recordAnswerMetrics(provider: string, outcome: AnswerOutcome, figures: { prompt: number; completion: number; latencyMs: number; firstTokenMs: number | null }) {
  modelCalls.inc({ provider, outcome });
  modelTokens.inc({ provider, kind: 'prompt' }, figures.prompt);
  modelTokens.inc({ provider, kind: 'completion' }, figures.completion);
  answerSeconds.observe({ provider }, figures.latencyMs / 1000);
  if (figures.firstTokenMs !== null) firstTokenSeconds.observe({ provider }, figures.firstTokenMs / 1000);
}

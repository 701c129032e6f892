// The door of the evaluation engine (scoring answers, judging them, summing scores): what the
// evaluations resource may use of it. Everything else under src/evaluation is the engine's own (eslint.config.js).
export type { AnswerUnderTest, CompiledPatterns, MetricDefinition, QueryUnderTest } from './answer-scoring.js';
export { precondition, scoreWithoutModel } from './answer-scoring.js';
export { DEFAULT_CORRECTNESS_RUBRIC, shownPrompt } from './judge-prompts.js';
export { runJudge } from './judge.js';
export type { MetricKind } from './metric-kinds.js';
export { KINDS, METRIC_KINDS, passes } from './metric-kinds.js';
export type { MetricOutcome } from './outcome.js';
export { failed, scored, undetermined } from './outcome.js';
export { cosineSimilarity } from './similarity.js';
export type { ExpectedSource } from './source-metrics.js';
export type { ScoreSums } from './statistics.js';
export { summarize } from './statistics.js';

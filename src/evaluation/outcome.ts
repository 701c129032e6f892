// What one metric says of one answer: a score, or why it cannot give one. `undetermined` is a
// question the metric cannot answer (no expected answer to compare with, a judge that answered
// nonsense); `error` is a failure (the agent or the judge failed). Neither is ever averaged in.
export type MetricOutcome =
  | { status: 'ok'; score: number; reason?: string | undefined }
  | { status: 'undetermined'; reason: string }
  | { status: 'error'; reason: string };

export const scored = (score: number, reason?: string): MetricOutcome => ({ status: 'ok', score, ...(reason === undefined ? {} : { reason }) });
export const undetermined = (reason: string): MetricOutcome => ({ status: 'undetermined', reason });
export const failed = (reason: string): MetricOutcome => ({ status: 'error', reason });

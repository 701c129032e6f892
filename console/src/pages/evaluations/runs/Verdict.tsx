// One metric's verdict on one answer: its score, passed or failed where it has a threshold, or why
// there is none (undetermined, an error).
import type { QueryResult } from '../evaluations-api';
import { formatScore } from '../format';

type Score = Pick<QueryResult['scores'][number], 'status' | 'score' | 'passed'>;

export function verdictText(score: Score): string {
  if (score.status === 'undetermined') return 'undetermined';
  if (score.status === 'error') return 'error';
  const passed = score.passed === null ? '' : score.passed ? ' (pass)' : ' (fail)';
  return `${formatScore(score.score)}${passed}`;
}

export function Verdict({ score }: { score: Score }) {
  const tone = score.status !== 'ok' ? 'muted' : score.passed === true ? 'score-ok' : score.passed === false ? 'score-fail' : '';
  return <span className={`verdict ${tone}`}>{verdictText(score)}</span>;
}

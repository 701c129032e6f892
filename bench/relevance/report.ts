// The evaluation's printout: scores per set and database, hit@3 per kind of question, and with
// --verbose every question whose first passage was not from an answering page.
import { fixed, formatTable } from '../lib/report.js';
import type { DatabaseKind } from './baseline.js';
import type { SetEvaluation } from './evaluate.js';
import { scoreRanks } from './measures.js';
import type { QuestionKind } from './questions.js';

export interface DatabaseRun {
  database: DatabaseKind;
  evaluations: SetEvaluation[];
}

const KINDS: QuestionKind[] = ['direct', 'paraphrase', 'identifier'];

export function formatScores(runs: DatabaseRun[]): string {
  const rows = runs.flatMap(({ database, evaluations }) =>
    evaluations.map(({ loaded, scores, latencyP50Ms, latencyP95Ms, pagesPerSecond, failedPages }) => [
      `${loaded.set.name} (${loaded.set.debianPackage} ${loaded.packageVersion})`,
      database,
      String(scores.questions),
      fixed(scores.hitAt1, 3),
      fixed(scores.hitAt3, 3),
      fixed(scores.mrrAt10, 3),
      fixed(latencyP50Ms, 1),
      fixed(latencyP95Ms, 1),
      failedPages > 0 ? `${loaded.pages.length} (${failedPages} failed)` : String(loaded.pages.length),
      fixed(pagesPerSecond, 1),
    ]),
  );
  return formatTable(['set', 'database', 'questions', 'hit@1', 'hit@3', 'MRR@10', 'search p50 ms', 'search p95 ms', 'pages', 'ingested pages/s'], rows);
}

export function formatScoresByKind(runs: DatabaseRun[]): string {
  const rows = runs.flatMap(({ database, evaluations }) =>
    evaluations.map(({ loaded, outcomes }) => [
      loaded.set.name,
      database,
      ...KINDS.map((kind) => {
        const ranks = outcomes.filter((outcome) => outcome.question.kind === kind).map((outcome) => outcome.rank);
        return ranks.length === 0 ? 'n/a' : `${fixed(scoreRanks(ranks).hitAt3, 3)} of ${ranks.length}`;
      }),
    ]),
  );
  return formatTable(['hit@3 by kind of question', 'database', ...KINDS], rows);
}

export function formatMisses(runs: DatabaseRun[]): string {
  const blocks = runs.flatMap(({ database, evaluations }) =>
    evaluations.map(({ loaded, outcomes }) => {
      const misses = outcomes.filter((outcome) => outcome.rank !== 1);
      const lines = misses.map(({ question, rank, firstPage, firstHeading }) => {
        const where = rank === undefined ? 'not in the first 10' : `rank ${rank}`;
        const first = firstPage === undefined ? 'nothing' : `${firstPage}${firstHeading ? ` (${firstHeading})` : ''}`;
        return `  - "${question.question}" [${question.kind}]: ${where}; expected ${question.answers.map((answer) => answer.page).join(' or ')}; first: ${first}`;
      });
      return [`${loaded.set.name} on ${database}: ${misses.length} of ${outcomes.length} questions not answered by the first passage`, ...lines].join('\n');
    }),
  );
  return blocks.join('\n\n');
}

// bench/relevance/baseline.json: the scores last recorded per set and database. `--check` fails a
// run whose hit@3 is below the recorded one (equal passes); `--record` writes the run's scores.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import type { RelevanceScores } from './measures.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface RecordedScores {
  questions: number;
  hit_at_1: number;
  hit_at_3: number;
  mrr_at_10: number;
  package_version: string;
  commit: string;
  recorded_on: string;
}

interface BaselineFile {
  about: string;
  sets: Record<string, Partial<Record<DatabaseKind, RecordedScores>>>;
}

export interface Measured {
  set: string;
  database: DatabaseKind;
  packageVersion: string;
  scores: RelevanceScores;
}

const BASELINE = new URL('./baseline.json', import.meta.url);
/** Shares are k/n fractions written in full; this only absorbs the last bit of a float. */
const EPSILON = 1e-9;

export async function readBaseline(): Promise<BaselineFile> {
  try {
    return JSON.parse(await readFile(BASELINE, 'utf8')) as BaselineFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { about: '', sets: {} };
    throw error;
  }
}

/** One line per measured set and database; `failed` when hit@3 fell below the baseline's. */
export function compareWithBaseline(baseline: BaselineFile, measured: Measured[]): { lines: string[]; failed: boolean } {
  let failed = false;
  const lines = measured.map(({ set, database, packageVersion, scores }) => {
    const recorded = baseline.sets[set]?.[database];
    if (recorded === undefined) return `${set} on ${database}: no baseline recorded (run with --record)`;
    const below = scores.hitAt3 < recorded.hit_at_3 - EPSILON;
    failed ||= below;
    const verdict = below ? 'BELOW the baseline' : 'ok';
    // Another version of the package has other pages: a change of score may come from them, not from the ranking.
    const pages = packageVersion === recorded.package_version ? '' : `, on package version ${recorded.package_version}, not ${packageVersion}`;
    return `${set} on ${database}: hit@3 ${scores.hitAt3.toFixed(3)}, baseline ${recorded.hit_at_3.toFixed(3)} (recorded at ${recorded.commit}${pages}) -> ${verdict}`;
  });
  return { lines, failed };
}

function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

export async function recordBaseline(baseline: BaselineFile, measured: Measured[]): Promise<void> {
  const commit = currentCommit();
  const recordedOn = new Date().toISOString().slice(0, 10);
  for (const { set, database, packageVersion, scores } of measured) {
    baseline.sets[set] = {
      ...baseline.sets[set],
      [database]: {
        questions: scores.questions,
        hit_at_1: scores.hitAt1,
        hit_at_3: scores.hitAt3,
        mrr_at_10: scores.mrrAt10,
        package_version: packageVersion,
        commit,
        recorded_on: recordedOn,
      },
    };
  }
  baseline.about = 'Scores of the relevance evaluation last recorded (node --import tsx bench/relevance.ts --record). --check fails when hit@3 is below these.';
  await writeFile(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
}

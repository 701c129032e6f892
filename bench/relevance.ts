// `npm run bench:relevance -- [set…] [--verbose] [--check | --record] [--database sqlite|postgres]…`
// The relevance evaluation of search: real documentation (Debian packages) uploaded to the built
// server, questions asked of POST /api/v2/corpora/{id}/search, and hit@1, hit@3 and MRR@10 of the
// pages that answer them. On SQLite, and on PostgreSQL too when DATABASE_URL names one. See
// docs/relevance-evaluation.md.
import { parseArgs } from 'node:util';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import { loadBenchConfig } from './lib/bench-config.js';
import { CleanupStack } from './lib/cleanup.js';
import { apiKeyClient } from './lib/credentials.js';
import { createScratchPostgres, postgresServerUrl } from './lib/scratch-postgres.js';
import { compareWithBaseline, readBaseline, recordBaseline, type DatabaseKind, type Measured } from './relevance/baseline.js';
import { evaluateSet } from './relevance/evaluate.js';
import { loadQuestions, type Question } from './relevance/questions.js';
import { formatMisses, formatScores, formatScoresByKind, type DatabaseRun } from './relevance/report.js';
import { findSets, loadSet, type LoadedSet } from './relevance/sets.js';

const log = (message: string) => process.stderr.write(`[relevance] ${message}\n`);

interface Options {
  sets: string[];
  databases: DatabaseKind[];
  verbose: boolean;
  check: boolean;
  record: boolean;
}

function readOptions(): Options {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      verbose: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      record: { type: 'boolean', default: false },
      database: { type: 'string', multiple: true },
    },
  });
  if (values.check && values.record) throw new Error('--check and --record exclude each other');
  const databases = (values.database ?? (postgresServerUrl() ? ['sqlite', 'postgres'] : ['sqlite'])) as DatabaseKind[];
  const unknown = databases.filter((database) => database !== 'sqlite' && database !== 'postgres');
  if (unknown.length > 0) throw new Error(`--database is sqlite or postgres, not ${unknown.join(', ')}`);
  if (databases.includes('postgres') && !postgresServerUrl()) throw new Error('--database postgres needs DATABASE_URL naming a PostgreSQL server');
  return { sets: positionals, databases, verbose: values.verbose, check: values.check, record: values.record };
}

async function runOnDatabase(database: DatabaseKind, sets: { loaded: LoadedSet; questions: Question[] }[], cleanup: CleanupStack): Promise<DatabaseRun> {
  // An embedder named in the environment is passed on, to measure hybrid retrieval against it.
  const env: Record<string, string> = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => /^(EMBEDDING_|EGRESS_ALLOWED_HOSTS$)/.test(entry[0]) && entry[1] !== undefined));
  // A database of its own for the run, so that runs (and the test suite) never meet.
  if (database === 'postgres') env.DATABASE_URL = await createScratchPostgres(postgresServerUrl()!, 'ap_relevance', cleanup);
  log(`starting the Agent Platform server on ${database}`);
  const platform = await startAgentPlatform(loadBenchConfig(), cleanup, env);
  const client = await apiKeyClient(platform);
  const evaluations = [];
  for (const { loaded, questions } of sets) evaluations.push(await evaluateSet(client, loaded, questions, (message) => log(`${database}: ${message}`)));
  if (platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${platform.server.outputTail()}`);
  return { database, evaluations };
}

async function main(): Promise<void> {
  const options = readOptions();
  // Pages and questions first: a question whose answer is not on its page stops the run before any server starts.
  const sets = [];
  for (const set of findSets(options.sets)) {
    const loaded = await loadSet(set, log);
    sets.push({ loaded, questions: await loadQuestions(loaded) });
  }

  const runs: DatabaseRun[] = [];
  for (const database of options.databases) {
    const cleanup = new CleanupStack();
    const stop = () => void cleanup.runAll().then(() => process.exit(130));
    process.once('SIGINT', stop);
    try {
      runs.push(await runOnDatabase(database, sets, cleanup));
    } finally {
      process.off('SIGINT', stop);
      await cleanup.runAll();
    }
  }

  process.stdout.write(`${formatScores(runs)}\n\n${formatScoresByKind(runs)}\n`);
  process.stdout.write('hit@k: share of questions with a passage of an answering page among the first k passages; MRR@10: mean of 1/rank of the first such passage (0 past 10)\n');
  if (options.verbose) process.stdout.write(`\n${formatMisses(runs)}\n`);

  const measured: Measured[] = runs.flatMap(({ database, evaluations }) =>
    evaluations.map(({ loaded, scores }) => ({ set: loaded.set.name, database, packageVersion: loaded.packageVersion, scores })),
  );
  const baseline = await readBaseline();
  if (options.record) {
    await recordBaseline(baseline, measured);
    process.stdout.write('\nbaseline recorded in bench/relevance/baseline.json\n');
    return;
  }
  const comparison = compareWithBaseline(baseline, measured);
  process.stdout.write(`\n${comparison.lines.join('\n')}\n`);
  if (options.check && comparison.failed) {
    process.stdout.write('relevance check failed: hit@3 fell below the recorded baseline\n');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\nRelevance evaluation failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

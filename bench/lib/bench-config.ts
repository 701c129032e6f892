// The benchmark's knobs, read from the environment once, so that every suite measures with the
// same settings and a bad value stops the run before any server starts.

export interface BenchConfig {
  /** Seconds each target is measured. */
  durationSeconds: number;
  /** Seconds each target is loaded, unmeasured, just before: lets the JIT and SQLite's cache settle. */
  warmupSeconds: number;
  /** Concurrent connections the load generator keeps open. */
  connections: number;
  /** When set, the Agent Platform server runs with --cpu-prof and writes its profile here. */
  cpuProfileDir: string | undefined;
  /** Seconds of the ask suite's concurrent streamed conversations. */
  askLoadSeconds: number;
  /** Streamed conversations the ask suite keeps going at once. */
  askConversations: number;
}

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string, fallback: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > max) {
    problems.push(`${name} must be an integer from 1 to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

export function loadBenchConfig(env: Env = process.env): BenchConfig {
  const problems: string[] = [];
  const config: BenchConfig = {
    durationSeconds: positiveInteger(env, 'BENCH_DURATION_SECONDS', 10, 600, problems),
    warmupSeconds: positiveInteger(env, 'BENCH_WARMUP_SECONDS', 2, 60, problems),
    connections: positiveInteger(env, 'BENCH_CONNECTIONS', 10, 1000, problems),
    cpuProfileDir: env.BENCH_CPU_PROFILE_DIR || undefined,
    askLoadSeconds: positiveInteger(env, 'BENCH_ASK_LOAD_SECONDS', 30, 600, problems),
    askConversations: positiveInteger(env, 'BENCH_ASK_CONVERSATIONS', 50, 1000, problems),
  };
  if (problems.length > 0) throw new Error(`Invalid benchmark settings:\n  - ${problems.join('\n  - ')}`);
  return config;
}

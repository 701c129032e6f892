// What the search suite measures over HTTP, the same way on each database: POST …/search one query
// at a time on one kept-alive connection, then under load from a few connections; and the latency
// tables, split by how many chunks a query matches.
import type { AgentPlatformServer } from './agent-platform-server.js';
import type { ApiClient } from './api-client.js';
import type { BenchConfig } from './bench-config.js';
import type { CleanupStack } from './cleanup.js';
import { singleConnectionAgent, timedRequest } from './http-timing.js';
import { assertMostlySuccessful, measureLoad, type LoadResult } from './load.js';
import { percentile } from './percentiles.js';
import { fixed, type ReportTable } from './report.js';

export const QUERIES = 500;
export const WARM_UP_QUERIES = 50;
/** Aim: full-text search answers within 20 ms at the 95th percentile, one query at a time. */
export const P95_AIM_MS = 20;
/** Passages asked for: the API's default. */
export const LIMIT = 10;
/** Connections of the load run: a few clients searching at once. */
export const LOAD_CONNECTIONS = 4;

export interface Query {
  text: string;
  /** Chunks of the corpus holding any of its words (counted once, in this process). */
  matches: number;
}

export interface Latencies {
  name: string;
  /** Per query, in the order of the queries. */
  ms: number[];
}

/** How many chunks a query matches decides most of its cost: the classes the latencies are split by. */
const MATCH_CLASSES = [
  { label: 'matching < 1,000 chunks', below: 1_000 },
  { label: 'matching 1,000–20,000 chunks', below: 20_000 },
  { label: 'matching ≥ 20,000 chunks', below: Number.POSITIVE_INFINITY },
];

function percentileRow(name: string, values: number[]): string[] {
  const sorted = Float64Array.from(values).sort();
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return [name, String(values.length), fixed(percentile(sorted, 50), 2), fixed(percentile(sorted, 95), 2), fixed(percentile(sorted, 99), 2), fixed(mean, 2)];
}

/** p50, p95, p99 and mean of all the queries, then of each match class that has any. */
export function latencyTable(latencies: Latencies, queries: Query[]): ReportTable {
  const byClass = MATCH_CLASSES.map((cls, index) => {
    const below = MATCH_CLASSES[index - 1]?.below ?? 0;
    const values = latencies.ms.filter((_, i) => queries[i]!.matches >= below && queries[i]!.matches < cls.below);
    return percentileRow(`  ${cls.label}`, values);
  }).filter((row) => row[1] !== '0');
  return {
    title: `${latencies.name}: one query at a time, ${QUERIES} queries`,
    header: ['queries', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms'],
    rows: [percentileRow('all', latencies.ms), ...byClass],
  };
}

export const p95Of = (latencies: Latencies) => percentile(Float64Array.from(latencies.ms).sort(), 95);

/** The search route of a running server, asked by the client's API key. */
export class SearchTarget {
  readonly url: string;
  readonly headers: Record<string, string>;

  constructor(
    readonly platform: AgentPlatformServer,
    client: ApiClient,
    corpusId: number,
  ) {
    this.url = `${platform.server.baseUrl}/api/v2/corpora/${corpusId}/search`;
    this.headers = { ...client.authorizationHeaders(), 'content-type': 'application/json' };
  }

  bodyOf(query: string): string {
    return JSON.stringify({ query, limit: LIMIT });
  }
}

export interface OneAtATime {
  latencies: Latencies;
  /** The chunk ids each query answered, best first, in the order of the queries. */
  answers: number[][];
  emptyAnswers: number;
}

/**
 * Checks that the server searches by full text, then sends the warm-up queries and the queries one
 * after another on one connection, timing each.
 */
export async function searchOneAtATime(target: SearchTarget, name: string, warmUp: string[], queries: Query[], cleanup: CleanupStack): Promise<OneAtATime> {
  const agent = singleConnectionAgent();
  cleanup.defer('close the search connection', () => agent.destroy());
  const search = async (query: string) => {
    const response = await timedRequest(target.url, { method: 'POST', headers: target.headers, body: target.bodyOf(query), agent, keepBody: true });
    if (response.status !== 200) throw new Error(`POST ${target.url} answered ${response.status}: ${response.body!.toString('utf8').slice(0, 300)}`);
    return { ms: response.ms, data: (JSON.parse(response.body!.toString('utf8')) as { data: { items: { chunk_id: number }[]; retrieval_mode: string } }).data };
  };

  const sample = await search(queries[0]!.text);
  if (sample.data.retrieval_mode !== 'full_text') throw new Error(`expected full_text retrieval, the server answered ${sample.data.retrieval_mode}`);
  for (const query of warmUp) await search(query);
  const latencies: Latencies = { name, ms: [] };
  const answers: number[][] = [];
  for (const query of queries) {
    const { ms, data } = await search(query.text);
    latencies.ms.push(ms);
    answers.push(data.items.map((item) => item.chunk_id));
  }
  agent.destroy();
  return { latencies, answers, emptyAnswers: answers.filter((answer) => answer.length === 0).length };
}

/** Throughput and latency with LOAD_CONNECTIONS connections, the queries in turn. */
export async function loadSearch(target: SearchTarget, name: string, queries: Query[], config: BenchConfig): Promise<LoadResult> {
  const load = await measureLoad(
    {
      name: `${name}, ${LOAD_CONNECTIONS} connections, varied queries`,
      url: target.url,
      method: 'POST',
      headers: target.headers,
      bodies: queries.map((query) => target.bodyOf(query.text)),
      serverPid: target.platform.server.pid,
    },
    { ...config, connections: LOAD_CONNECTIONS },
  );
  assertMostlySuccessful(load);
  if (target.platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${target.platform.server.outputTail()}`);
  return load;
}

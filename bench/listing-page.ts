// The listing suite's load targets: a corpus of 200 documents of ~1.2 KB listed whole through the
// legacy route and as one page of 200 through /api/v2, with a session token (a browser showing a
// corpus), under load. Each is paired with its floor, the baseline process (listing-baseline.ts)
// reading the same rows with better-sqlite3 and writing the same bytes; the figure that matters is
// the server's CPU per request against the floor's.
import type { AgentPlatformServer } from './lib/agent-platform-server.js';
import type { BenchConfig } from './lib/bench-config.js';
import type { ChildServer } from './lib/child-server.js';
import type { SeedDocument } from './lib/corpus-setup.js';
import { sessionClient } from './lib/credentials.js';
import { assertMostlySuccessful, measureLoad, type LoadResult } from './lib/load.js';
import { fixed, type Aim, type ReportTable } from './lib/report.js';
import { ZipfVocabulary, seededRandom } from './lib/text-corpus.js';

export const PAGE_DOCUMENTS = 200;
/** Text of each document: 1,100 to 1,300 characters, about 1.2 KB. */
const TEXT_CHARS = { min: 1_100, max: 1_300 };
/** Aim: the server spends at most this many times the floor's CPU on a request (docs/performance.md). */
const CPU_RATIO_AIM = 3;

export function* pageSeedDocuments(): Generator<SeedDocument> {
  const vocabulary = new ZipfVocabulary(20_000);
  const random = seededRandom(1200);
  for (let i = 1; i <= PAGE_DOCUMENTS; i++) {
    const chars = TEXT_CHARS.min + Math.floor(random() * (TEXT_CHARS.max - TEXT_CHARS.min));
    yield { source: `note-${String(i).padStart(3, '0')}.txt`, text: vocabulary.text(random, chars), chunkCount: 1 };
  }
}

export interface PageListingReport {
  results: LoadResult[];
  table: ReportTable;
  aims: Aim[];
  notes: string[];
}

interface Route {
  name: string;
  path: string;
}

async function bodyOf(url: string, headers: Record<string, string>): Promise<Buffer> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.toString('utf8').slice(0, 500)}`);
  return body;
}

export async function measurePageListings(
  config: BenchConfig,
  log: (message: string) => void,
  platform: AgentPlatformServer,
  baseline: ChildServer,
  corpusId: number,
): Promise<PageListingReport> {
  const session = await sessionClient(platform);
  const routes: Route[] = [
    { name: `GET /api/corpus/{id}/document/ (${PAGE_DOCUMENTS} documents, session)`, path: `/api/corpus/${corpusId}/document/` },
    { name: `GET /api/v2/corpora/{id}/documents?page_size=${PAGE_DOCUMENTS} (session)`, path: `/api/v2/corpora/${corpusId}/documents?page_size=${PAGE_DOCUMENTS}` },
  ];
  const results: LoadResult[] = [];
  const rows: string[][] = [];
  const aims: Aim[] = [];
  const notes: string[] = [];
  for (const route of routes) {
    const served = await bodyOf(platform.server.baseUrl + route.path, session.authorizationHeaders());
    const floorBody = await bodyOf(baseline.baseUrl + route.path, {});
    if (!served.equals(floorBody)) {
      throw new Error(`${route.name}: the server's body differs from the baseline's\n${served.toString('utf8').slice(0, 800)}\n---\n${floorBody.toString('utf8').slice(0, 800)}`);
    }
    notes.push(`${route.name}: ${served.length.toLocaleString('en')} bytes, byte for byte the baseline's`);
    const pair: LoadResult[] = [];
    for (const [name, server, headers] of [
      [`floor: ${route.name.replace(/ \(.*\)$/, '')}`, baseline, {}],
      [route.name, platform.server, session.authorizationHeaders()],
    ] as const) {
      log(`loading ${name}: ${config.warmupSeconds} s warm-up, ${config.durationSeconds} s measured, ${config.connections} connections`);
      const result = await measureLoad({ name, url: server.baseUrl + route.path, headers, serverPid: server.pid }, config);
      assertMostlySuccessful(result);
      pair.push(result);
    }
    const [floor, real] = pair as [LoadResult, LoadResult];
    results.push(floor, real);
    const ratio = real.serverCpuMicrosPerRequest / floor.serverCpuMicrosPerRequest;
    rows.push([route.name, fixed(real.serverCpuMicrosPerRequest, 0), fixed(floor.serverCpuMicrosPerRequest, 0), fixed(ratio, 2)]);
    aims.push({ label: `server CPU / floor CPU, ${route.name}`, value: ratio, comparison: '<=', target: CPU_RATIO_AIM });
  }
  if (platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${platform.server.outputTail()}`);
  return {
    results,
    table: {
      title: `server CPU per request against the floor (${PAGE_DOCUMENTS} documents of ~1.2 KB)`,
      header: ['target', 'server CPU µs/req', 'floor CPU µs/req', 'ratio'],
      rows,
    },
    aims,
    notes,
  };
}

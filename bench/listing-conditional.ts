// The listing rows of the speed aims: the 200-document corpus listed with a session token, one
// request at a time over one kept-alive connection (a browser showing the corpus), to the last byte;
// the same listing unchanged, asked with the tag of the previous answer in If-None-Match (a 304 with no
// body, docs/api.md "Conditional requests"); and a bare Fastify route answering the same bytes (the
// HTTP floor, bench/bare-server.ts). The three alternate, so that a disturbance falls on each alike.
import type { AgentPlatformServer } from './lib/agent-platform-server.js';
import { startBareServer } from './lib/bare-server-process.js';
import type { CleanupStack } from './lib/cleanup.js';
import { sessionClient } from './lib/credentials.js';
import { singleConnectionAgent, timedRequest } from './lib/http-timing.js';
import { SPEED_FIGURES, judgedRow } from './lib/speed-aims.js';
import { percentile } from './lib/percentiles.js';
import { fixed, type SpeedRow, type ReportTable } from './lib/report.js';
import { PAGE_DOCUMENTS } from './listing-page.js';

const WARM_UP_ROUNDS = 20;
const ROUNDS = 200;
/** Flowise 3.1.3's time for the same listing, from the speed aims' table; the aim is a third of it. */
const FLOWISE_LISTING_MS = 11.2;
/**
 * "Far less" than a listing, made a number: an unchanged listing in at most a tenth of the listing's time
 * before conditional reads (every request read and wrote the rows). Not a tenth of today's 200, which is
 * itself served from the kept bytes of the same tag without reading rows: both then cost what HTTP does.
 */
const LISTING_BEFORE_MS = 11.3;
const UNCHANGED_SHARE_AIM = 0.1;

interface Route {
  name: string;
  path: string;
  /** The same path's Fastify route, for the bare server. */
  bareRoute: string;
}

interface RouteTimes {
  route: Route;
  listed: number[];
  unchanged: number[];
  bare: number[];
  bytes: number;
}

export interface ConditionalListingReport {
  table: ReportTable;
  notes: string[];
  speedRows: SpeedRow[];
}

const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);
const p95 = (values: number[]) => percentile(Float64Array.from(values).sort(), 95);

async function timeRoute(platform: AgentPlatformServer, headers: Record<string, string>, route: Route, cleanup: CleanupStack): Promise<RouteTimes> {
  const url = platform.server.baseUrl + route.path;
  const first = await timedRequest(url, { headers, keepBody: true });
  const etag = first.headers.etag;
  if (first.status !== 200 || typeof etag !== 'string') throw new Error(`${route.name}: answered ${first.status}${etag === undefined ? ' without an ETag' : ''}`);
  const bareServer = await startBareServer({ route: route.bareRoute, samplePath: route.path, body: first.body!.toString('utf8') }, cleanup);
  const connections = { ours: singleConnectionAgent(), unchanged: singleConnectionAgent(), bare: singleConnectionAgent() };
  const times: RouteTimes = { route, listed: [], unchanged: [], bare: [], bytes: first.bytes };
  try {
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      const bare = await timedRequest(bareServer.baseUrl + route.path, { agent: connections.bare });
      const listed = await timedRequest(url, { headers, agent: connections.ours });
      const unchanged = await timedRequest(url, { headers: { ...headers, 'if-none-match': etag }, agent: connections.unchanged });
      if (bare.status !== 200 || listed.status !== 200 || unchanged.status !== 304 || unchanged.bytes !== 0) {
        throw new Error(`${route.name}: bare ${bare.status}, listing ${listed.status}, unchanged listing ${unchanged.status} (${unchanged.bytes} bytes)`);
      }
      if (listed.bytes !== first.bytes || bare.bytes !== first.bytes) throw new Error(`${route.name}: the body changed size between requests`);
      if (round < WARM_UP_ROUNDS) continue;
      times.bare.push(bare.ms);
      times.listed.push(listed.ms);
      times.unchanged.push(unchanged.ms);
    }
  } finally {
    for (const agent of Object.values(connections)) agent.destroy();
    await bareServer.stop();
  }
  return times;
}

/** The legacy listing (the whole array) and the v2 page of 200, each 200 and 304, beside the bare route. */
export async function measureConditionalListings(platform: AgentPlatformServer, corpusId: number, cleanup: CleanupStack, log: (message: string) => void): Promise<ConditionalListingReport> {
  const session = await sessionClient(platform);
  const routes: Route[] = [
    { name: `GET /api/corpus/{id}/document/ (${PAGE_DOCUMENTS} documents)`, path: `/api/corpus/${corpusId}/document/`, bareRoute: '/api/corpus/:corpus_id/document/' },
    {
      name: `GET /api/v2/corpora/{id}/documents?page_size=${PAGE_DOCUMENTS}`,
      path: `/api/v2/corpora/${corpusId}/documents?page_size=${PAGE_DOCUMENTS}`,
      bareRoute: '/api/v2/corpora/:corpus_id/documents',
    },
  ];
  const measured: RouteTimes[] = [];
  for (const route of routes) {
    log(`${route.name}, session token: ${WARM_UP_ROUNDS} warm-up then ${ROUNDS} rounds of bare / listing / unchanged listing`);
    measured.push(await timeRoute(platform, session.authorizationHeaders(), route, cleanup));
  }
  const legacy = measured[0]!;
  const listedMs = median(legacy.listed);
  const ms = { unit: 'ms', digits: 2 } as const;
  return {
    table: {
      title: `${PAGE_DOCUMENTS} documents with a session token, one request at a time over one connection, ${ROUNDS} of each alternated, to the last byte`,
      header: ['route', 'body bytes', 'listing p50 / p95 ms', 'unchanged (304) p50 / p95 ms', 'bare Fastify, same bytes, p50 / p95 ms'],
      rows: measured.map((times) => [
        times.route.name,
        times.bytes.toLocaleString('en'),
        `${fixed(median(times.listed), 2)} / ${fixed(p95(times.listed), 2)}`,
        `${fixed(median(times.unchanged), 2)} / ${fixed(p95(times.unchanged), 2)}`,
        `${fixed(median(times.bare), 2)} / ${fixed(p95(times.bare), 2)}`,
      ]),
    },
    notes: [`unchanged listing: If-None-Match with the ETag of the first answer, answered 304 without a body every time`],
    speedRows: [
      judgedRow(SPEED_FIGURES.listing, {
        ...ms,
        value: listedMs,
        bare: median(legacy.bare),
        comparison: '<',
        target: Math.round((FLOWISE_LISTING_MS / 3) * 100) / 100,
        aimText: `a third of Flowise's ${FLOWISE_LISTING_MS} ms`,
      }),
      judgedRow(SPEED_FIGURES.listingUnchanged, {
        ...ms,
        value: median(legacy.unchanged),
        comparison: '<=',
        target: Math.round(LISTING_BEFORE_MS * UNCHANGED_SHARE_AIM * 100) / 100,
        aimText: `far less: a tenth of the listing before conditional reads (${LISTING_BEFORE_MS} ms)`,
      }),
    ],
  };
}

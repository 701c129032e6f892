// The three providers' protocols, from their public documentation:
// - SearXNG (self-hosted): GET {base}/search?q=…&format=json → { results: [{ url, title, content }] };
//   the instance must list `json` in search.formats (else it answers 403).
// - Tavily: POST https://api.tavily.com/search, Authorization: Bearer <key>, JSON { query,
//   max_results, search_depth } → { results: [{ title, url, content, score }] }.
// - Brave Search API: GET https://api.search.brave.com/res/v1/web/search?q=…&count=…,
//   X-Subscription-Token: <key> → { web: { results: [{ title, url, description }] } } (no `web`
//   when nothing was found).
// A base_url replaces the hosted providers' own address (a proxy, or a test's loopback server).
import type { EgressClient } from '../../net/egress.js';
import type { WebSearchConfig } from './config.js';
import { hitsOf } from './hit-text.js';
import { SearchFailed, type SearchProvider } from './provider.js';
import { maskedRequest, sendSearch, type ProviderProtocol } from './search-request.js';

const TAVILY_URL = 'https://api.tavily.com';
const BRAVE_URL = 'https://api.search.brave.com';

/** `path` under the base URL, keeping a base's own path (https://host/searx → https://host/searx/search). */
function under(base: string, path: string): URL {
  return new URL(path, base.endsWith('/') ? base : `${base}/`);
}

function resultsOf(label: string, answer: unknown, read: (answer: Record<string, unknown>) => unknown): unknown[] {
  const results = typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? read(answer as Record<string, unknown>) : undefined;
  if (!Array.isArray(results)) throw new SearchFailed(`${label} answered JSON that is not a list of search results`);
  return results;
}

function searxng(baseUrl: string): ProviderProtocol {
  const label = 'SearXNG';
  return {
    label,
    request(query) {
      const url = under(baseUrl, 'search');
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      return { method: 'GET', url, headers: { accept: 'application/json' }, body: null };
    },
    parse: (answer) => hitsOf(resultsOf(label, answer, (a) => a.results), (r) => ({ title: r.title, url: r.url, snippet: r.content })),
    refusedMessage: (status) => `SearXNG refused the search (HTTP ${status}): the instance must allow the JSON format (search.formats in its settings.yml)`,
  };
}

function tavily(baseUrl: string, key: string): ProviderProtocol {
  const label = 'Tavily';
  return {
    label,
    request(query, maxResults) {
      const body = JSON.stringify({ query, max_results: maxResults, search_depth: 'basic', include_answer: false, include_raw_content: false, include_images: false });
      return { method: 'POST', url: under(baseUrl, 'search'), headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${key}` }, body };
    },
    parse: (answer) => hitsOf(resultsOf(label, answer, (a) => a.results), (r) => ({ title: r.title, url: r.url, snippet: r.content })),
    refusedMessage: (status) => `Tavily refused the API key (HTTP ${status}): check the tool's secret`,
  };
}

function brave(baseUrl: string, key: string): ProviderProtocol {
  const label = 'Brave Search';
  return {
    label,
    request(query, maxResults) {
      const url = under(baseUrl, 'res/v1/web/search');
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(maxResults));
      return { method: 'GET', url, headers: { accept: 'application/json', 'x-subscription-token': key }, body: null };
    },
    // Nothing found: Brave leaves `web` out.
    parse: (answer) =>
      hitsOf(
        resultsOf(label, answer, (a) => (a.web === undefined ? [] : typeof a.web === 'object' && a.web !== null ? (a.web as Record<string, unknown>).results : undefined)),
        (r) => ({ title: r.title, url: r.url, snippet: r.description }),
      ),
    refusedMessage: (status) => `Brave Search refused the API key (HTTP ${status}): check the tool's secret`,
  };
}

/** The protocol of the configured provider; the config was checked when written (webSearchConfigProblem). */
export function providerProtocol(config: WebSearchConfig, secret: string | null): ProviderProtocol {
  switch (config.provider) {
    case 'searxng':
      return searxng(config.base_url ?? '');
    case 'tavily':
      return tavily(config.base_url ?? TAVILY_URL, secret ?? '');
    case 'brave':
      return brave(config.base_url ?? BRAVE_URL, secret ?? '');
  }
}

/** The configured provider as the tool uses it. */
export function createSearchProvider(egress: EgressClient, config: WebSearchConfig, secret: string | null): SearchProvider {
  const protocol = providerProtocol(config, secret);
  return {
    label: protocol.label,
    shownRequest: (query, maxResults) => maskedRequest(protocol.request(query, maxResults), secret),
    search: (query, options) => sendSearch(egress, protocol, secret, query, options),
  };
}

// The web search tool: the model gives a query, the configured provider (SearXNG, Tavily, Brave)
// answers through the egress client, and the model reads numbered results with their URLs; with
// fetch_pages, also the start of the top results' pages. Every failure is an outcome with status
// 'error' and a sentence the model can use; the API key is in no message and masked in `request`.
import { performance } from 'node:perf_hooks';
import type { RunnableTool, StoredTool, ToolOutcome, ToolRunContext } from '../tool.js';
import type { ToolDeps } from '../tool-deps.js';
import { WEB_SEARCH_DEFAULT_MAX_RESULTS, webSearchConfigProblem, type WebSearchConfig } from './config.js';
import { fetchPageText, PAGE_BYTES } from './page-text.js';
import { SearchFailed, type SearchHit } from './provider.js';
import { createSearchProvider } from './providers.js';
import { resultsText } from './results-text.js';

/** Pages fetched with fetch_pages: the top results'. */
export const PAGES_FETCHED = 3;
const QUERY_CHARACTERS = 400;

function parametersOf(maxResults: number) {
  return {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: QUERY_CHARACTERS, description: 'What to search the web for' },
      max_results: { type: 'integer', minimum: 1, maximum: maxResults, description: `How many results, at most ${maxResults}` },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

/** The model's arguments, or the sentence that says what is wrong with them. */
function readInput(input: Record<string, unknown>, ceiling: number): { query: string; maxResults: number } | string {
  const query = typeof input?.query === 'string' ? input.query.trim() : '';
  if (query === '') return 'The search needs a query: a non-empty string';
  if (query.length > QUERY_CHARACTERS) return `The query is longer than ${QUERY_CHARACTERS} characters`;
  const asked = input.max_results;
  if (asked !== undefined && (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1)) return 'max_results must be a positive integer';
  return { query, maxResults: Math.min(asked ?? ceiling, ceiling) };
}

export function createWebSearchTool(tool: StoredTool, deps: Pick<ToolDeps, 'egress' | 'maxOutputCharacters'>): RunnableTool {
  const config = tool.config as WebSearchConfig;
  const ceiling = config.max_results ?? WEB_SEARCH_DEFAULT_MAX_RESULTS;
  const problem = webSearchConfigProblem(config, tool.secret);
  const provider = problem === null ? createSearchProvider(deps.egress, config, tool.secret) : undefined;

  async function fetchPages(hits: SearchHit[], context: ToolRunContext, deadline: number) {
    const top = hits.slice(0, PAGES_FETCHED);
    const timeoutMs = Math.max(1, Math.floor(deadline - performance.now()));
    const maxBytes = Math.min(PAGE_BYTES, context.maxResponseBytes);
    return Promise.all(top.map((hit) => fetchPageText(deps.egress, hit.url, { signal: context.signal, timeoutMs, maxBytes })));
  }

  async function run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolOutcome> {
    if (provider === undefined) return { status: 'error', output: `The tool is not set up: ${problem}` };
    const read = readInput(input, ceiling);
    if (typeof read === 'string') return { status: 'error', output: read };
    const deadline = performance.now() + context.timeoutMs;
    const request = provider.shownRequest(read.query, read.maxResults);
    let hits: SearchHit[];
    try {
      hits = await provider.search(read.query, { maxResults: read.maxResults, signal: context.signal, timeoutMs: context.timeoutMs, maxBytes: context.maxResponseBytes });
    } catch (error) {
      if (!(error instanceof SearchFailed)) throw error;
      return { status: 'error', output: error.message, request, ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }) };
    }
    const pages = config.fetch_pages ? await fetchPages(hits, context, deadline) : [];
    return { status: 'ok', output: resultsText(provider.label, read.query, hits, pages, deps.maxOutputCharacters), request };
  }

  return {
    id: tool.id,
    kind: 'web_search',
    definition: { name: tool.name, description: tool.description, parameters: parametersOf(ceiling) },
    async run(input, context) {
      try {
        return await run(input, context);
      } catch (error) {
        // A fault of ours, not of the provider: still an outcome, so that the answer goes on.
        return { status: 'error', output: `The web search failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

// What a web search provider is to the tool: a search that gives titles, URLs and snippets, or fails
// with a sentence the model and the people testing the tool can act on (never the API key).
import type { SentRequest } from '../tool.js';

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchOptions {
  maxResults: number;
  signal: AbortSignal;
  /** Deadline of the search request. */
  timeoutMs: number;
  /** Largest answer read from the provider. */
  maxBytes: number;
}

export interface SearchProvider {
  /** The provider's name as messages say it (SearXNG, Tavily, Brave Search). */
  readonly label: string;
  /** The request a search for `query` sends, its secret masked: what an outcome shows. */
  shownRequest(query: string, maxResults: number): SentRequest;
  /** Throws SearchFailed, and nothing else, when no results can be had. */
  search(query: string, options: SearchOptions): Promise<SearchHit[]>;
}

/** A search that gave no results; the message is for the model and for people, and holds no secret. */
export class SearchFailed extends Error {
  constructor(
    message: string,
    /** The provider's HTTP status, where one answered. */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'SearchFailed';
  }
}

// The settings of a web search tool, as written through the tools routes and read by its factory.
import { Type, type Static } from '@sinclair/typebox';

export const WEB_SEARCH_PROVIDERS = ['searxng', 'tavily', 'brave'] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

/** Hosted providers are reached with an API key: the tool's secret. */
export const PROVIDERS_NEEDING_KEY: ReadonlySet<WebSearchProviderName> = new Set(['tavily', 'brave']);

export const WEB_SEARCH_DEFAULT_MAX_RESULTS = 5;

export const WebSearchConfig = Type.Object(
  {
    provider: Type.Union(
      WEB_SEARCH_PROVIDERS.map((provider) => Type.Literal(provider)),
      { description: 'searxng (a self-hosted instance), tavily or brave (hosted, the tool’s secret is the API key)' },
    ),
    base_url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        pattern: '^https?://',
        description: 'An http(s) URL. Required for searxng (the instance); for tavily and brave it replaces the provider’s own address',
      }),
    ),
    max_results: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 10, default: WEB_SEARCH_DEFAULT_MAX_RESULTS, description: 'Most results given to the model' }),
    ),
    fetch_pages: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true: the readable text of the top results’ pages is fetched (public addresses only) and added, each cut',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WebSearchConfig = Static<typeof WebSearchConfig>;

/**
 * What the schema cannot say: searxng needs base_url, hosted providers need an API key. Returns the
 * problem in words for a 400, or null when the settings are whole.
 */
export function webSearchConfigProblem(config: WebSearchConfig, secret: string | null | undefined): string | null {
  if (config.provider === 'searxng' && config.base_url === undefined) {
    return 'A searxng web search tool needs config.base_url: the address of the SearXNG instance';
  }
  if (PROVIDERS_NEEDING_KEY.has(config.provider) && (secret === null || secret === undefined || secret === '')) {
    return `A ${config.provider} web search tool needs its API key as the tool's secret`;
  }
  return null;
}

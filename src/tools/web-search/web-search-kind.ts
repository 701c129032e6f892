// The web search tool as a kind: a SearXNG instance the egress rules allow, or a hosted provider
// whose API key is the tool's secret.
import type { ErrorDetail } from '../../errors.js';
import type { AllowList } from '../../net/allowed-hosts.js';
import { EgressRefused } from '../../net/egress-errors.js';
import { checkDestination } from '../../net/egress.js';
import type { ToolKindDescriptor } from '../tool-kind.js';
import { WebSearchConfig, webSearchConfigProblem } from './config.js';
import { createWebSearchTool } from './index.js';

export function destinationProblems(url: string | undefined, allowList: AllowList, pointer: string): ErrorDetail[] {
  if (url === undefined) return [];
  try {
    checkDestination(new URL(url), allowList);
    return [];
  } catch (error) {
    if (error instanceof EgressRefused) return [{ pointer, message: error.message }];
    if (error instanceof TypeError) return [{ pointer, message: 'is not an absolute URL' }];
    throw error;
  }
}

export const webSearchToolKind: ToolKindDescriptor<WebSearchConfig> = {
  kind: 'web_search',
  settings: WebSearchConfig,
  takesSecret: true,
  defaultDescription: 'Searches the web and gives the top results (title, URL, snippet). Use it for recent events and facts that are not in your instructions or documents.',
  settingsProblems(search, { allowList, hasSecret, at }) {
    const problems = destinationProblems(search.base_url, allowList, `${at}/base_url`);
    const problem = webSearchConfigProblem(search, hasSecret ? 'kept' : null);
    if (problem !== null) problems.push({ pointer: search.provider === 'searxng' ? `${at}/base_url` : '/body/secret', message: problem });
    return problems;
  },
  create: createWebSearchTool,
};

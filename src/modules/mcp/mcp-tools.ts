// The tools of the MCP server (API.md §9): ask_agent asks through the one asking pipeline, as
// POST /api/v2/agents/{id}/responses does (same permissions, guardrails, usage events, cost and
// stored response); search_corpus searches through the retrieval service, as the corpus search route
// does. What the caller got wrong or may not do is a tool error result (isError) with the API's
// message, which the client's model can read and act on; never a protocol error.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import type { SearchResult, SearchService } from '../retrieval/search.service.js';
import type { Answer } from '../runtime/answer.js';
import type { AskService } from '../runtime/ask.service.js';
import { QUERY_MAX_CHARACTERS } from '../runtime/ask.schemas.js';
import type { McpDirectory } from './mcp-agents.js';

export interface McpToolDeps {
  asks: AskService;
  search: SearchService;
  directory: McpDirectory;
  log: FastifyBaseLogger;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const Reference = (what: string) =>
  z.union([z.number().int().positive(), z.string().min(1).max(200)]).describe(`The ${what}`);

const CitationOutput = z.object({
  index: z.number().int().describe('The mark [n] in the answer that points to this passage'),
  document_id: z.number().int(),
  source: z.string().describe('File name or address of the document'),
  corpus_id: z.number().int(),
  text: z.string().describe('The passage the answer drew on'),
});

const AskAgentOutput = {
  answer: z.string(),
  citations: z.array(CitationOutput),
  thread_id: z.number().int().describe('Pass it as thread_id to ask a follow-up question in the same conversation'),
  response_id: z.number().int().describe('The stored response, as GET /api/v2/responses/{id} reads it'),
};

const PassageOutput = z.object({
  document_id: z.number().int(),
  corpus_id: z.number().int(),
  source: z.string(),
  page: z.number().int().nullable(),
  heading: z.string().nullable(),
  text: z.string(),
  score: z.number().describe('From 0 to 1, higher is better; comparable within one search'),
});

const SearchCorpusOutput = {
  corpus_id: z.number().int(),
  retrieval_mode: z.enum(['full_text', 'hybrid']),
  warning: z.string().optional().describe('Why a search that would have been hybrid used full text alone'),
  passages: z.array(PassageOutput),
};

const toolError = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

/** The tool's work, with its refusals as tool errors: an error of the API in its words, a fault of the server without its details. */
async function asToolResult(log: FastifyBaseLogger, tool: string, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.status !== 500) return toolError(error.message);
    log.error({ err: error, tool }, 'an MCP tool failed');
    return toolError('The server failed while running the tool; its log has the details');
  }
}

/** The answer as text, its sources listed by file name under their marks. */
function answerText(answer: Answer): string {
  if (answer.citations.length === 0) return answer.text;
  const sources = answer.citations.map((citation) => `[${citation.number}] ${citation.source}${citation.page === null ? '' : `, page ${citation.page}`}`);
  return `${answer.text}\n\nSources:\n${sources.join('\n')}`;
}

function searchText(corpusId: number, result: SearchResult): string {
  if (result.items.length === 0) return `No passage of corpus ${corpusId} matches the query.`;
  const passages = result.items.map((passage, i) => `[${i + 1}] ${passage.source}${passage.page === null ? '' : `, page ${passage.page}`} (score ${passage.score})\n${passage.text}`);
  return `${passages.join('\n\n')}${result.warning ? `\n\n(${result.warning})` : ''}`;
}

/**
 * Tells a client that asked for progress (a progressToken) how far the answer has come, in characters;
 * a client that resets its timeout on progress then waits for a long answer.
 */
function progressReporter(extra: Extra) {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let characters = 0;
  return (text: string) => {
    characters += text.length;
    // Nothing waits for a notification: one lost with a client that went away changes nothing.
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: characters } }).catch(() => undefined);
  };
}

export function registerMcpTools(server: McpServer, deps: McpToolDeps, actor: Actor, clientGone: AbortSignal): void {
  server.registerTool(
    'ask_agent',
    {
      title: 'Ask an agent',
      description:
        'Ask one of your agents a question. It answers from its model, the corpora you may read and its tools, ' +
        'with numbered citations [n] of the passages it drew on. Pass the thread_id of an earlier answer to continue that conversation.',
      inputSchema: {
        agent: Reference('agent: its id, alias or name (see the agents resources)'),
        question: z.string().min(1).max(QUERY_MAX_CHARACTERS).regex(/\S/, 'must not be blank').describe('The question'),
        thread_id: z.number().int().positive().optional().describe('A thread of yours with this agent, to continue; absent: a new thread'),
      },
      outputSchema: AskAgentOutput,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) =>
      asToolResult(deps.log, 'ask_agent', async () => {
        const agentId = await deps.directory.agentIdOf(actor, args.agent);
        const prepared = await deps.asks.prepare(actor, agentId, { query: args.question, thread_id: args.thread_id });
        const delta = progressReporter(extra);
        const { answer, upstreamError } = await deps.asks.answer(actor, prepared, delta ? { delta } : {}, AbortSignal.any([clientGone, extra.signal]));
        if (upstreamError) return toolError(upstreamError.message);
        if (answer.status === 'blocked') return toolError(`Not answered: ${answer.error ?? 'a guardrail blocked it'}`);
        if (answer.status === 'failed' || answer.id === undefined || answer.threadId === undefined) return toolError(answer.error ?? 'The answer was not finished');
        return {
          content: [{ type: 'text', text: answerText(answer) }],
          structuredContent: {
            answer: answer.text,
            citations: answer.citations.map((citation) => ({
              index: citation.number,
              document_id: citation.document_id,
              source: citation.source,
              corpus_id: citation.corpus_id,
              text: citation.passage,
            })),
            thread_id: answer.threadId,
            response_id: answer.id,
          },
        };
      }),
  );

  server.registerTool(
    'search_corpus',
    {
      title: 'Search a corpus',
      description: 'The passages of a corpus you may read that best match a query, best first, with their sources and scores.',
      inputSchema: {
        corpus: Reference('corpus: its id or name (see the corpora resources)'),
        query: z.string().min(1).max(2000).describe('What to look for'),
        limit: z.number().int().min(1).max(100).optional().describe('How many passages at most; 10 by default'),
      },
      outputSchema: SearchCorpusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      asToolResult(deps.log, 'search_corpus', async () => {
        const corpusId = await deps.directory.corpusIdOf(actor, args.corpus);
        const result = await deps.search.search(actor, corpusId, args.query, args.limit ?? 10);
        return {
          content: [{ type: 'text', text: searchText(corpusId, result) }],
          structuredContent: {
            corpus_id: corpusId,
            retrieval_mode: result.retrieval_mode,
            ...(result.warning === undefined ? {} : { warning: result.warning }),
            passages: result.items.map(({ document_id, corpus_id, source, page, heading, text, score }) => ({ document_id, corpus_id, source, page, heading, text, score })),
          },
        };
      }),
  );
}

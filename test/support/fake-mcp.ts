// MCP servers on loopback for the tests of MCP server tools, made with the official SDK's McpServer:
// one over Streamable HTTP (stateless, a server per request) and one over the older HTTP+SSE transport
// only (a POST to its endpoint answers 405, as such a server does, so that a client in auto mode falls
// back). Both offer the same tools and record the headers each request came with.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface FakeMcpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp */
  url: string;
  /** host:port, for EGRESS_ALLOWED_HOSTS. */
  host: string;
  /** The headers of every HTTP request received. */
  requests: IncomingMessage['headers'][];
  /** The tools called, by name, in order. */
  calls: string[];
  /** Tools offered besides the fixed ones (a test adds one, then refreshes). */
  extraTools: string[];
  /** Resolved once a call of `hang` has begun (it never answers). */
  hangStarted: Promise<void>;
  close(): Promise<void>;
}

export const LARGE_ANSWER_CHARACTERS = 40_000;

function offerTools(server: McpServer, state: { calls: string[]; extraTools: string[]; onHang: () => void }) {
  const called = (name: string) => state.calls.push(name);
  server.registerTool('echo', { description: 'Says the text back', inputSchema: { text: z.string() } }, async ({ text }) => {
    called('echo');
    return { content: [{ type: 'text', text: `echo: ${text}` }] };
  });
  server.registerTool('forecast', { description: 'The weather forecast of a city', inputSchema: { city: z.string().min(1) } }, async ({ city }) => {
    called('forecast');
    return { content: [{ type: 'text', text: `Sunny in ${city}` }, { type: 'text', text: '21 degrees' }] };
  });
  server.registerTool('picture', { description: 'A picture of the day' }, async () => {
    called('picture');
    return { content: [{ type: 'image', data: Buffer.from('not really a png').toString('base64'), mimeType: 'image/png' }, { type: 'text', text: 'A lighthouse' }] };
  });
  server.registerTool('failing', { description: 'Looks up a ticket that does not exist' }, async () => {
    called('failing');
    return { content: [{ type: 'text', text: 'ticket 42 does not exist' }], isError: true };
  });
  server.registerTool('hang', { description: 'Never answers' }, async () => {
    called('hang');
    state.onHang();
    return new Promise<never>(() => {});
  });
  server.registerTool('large', { description: 'A long answer' }, async () => {
    called('large');
    return { content: [{ type: 'text', text: 'x'.repeat(LARGE_ANSWER_CHARACTERS) }] };
  });
  server.registerTool('request_headers', { description: 'Says which credentials the request carried' }, async (extra) => {
    called('request_headers');
    const headers = extra.requestInfo?.headers ?? {};
    return { content: [{ type: 'text', text: JSON.stringify({ authorization: headers.authorization, workspace: headers['x-workspace'] }) }] };
  });
  // Its pattern needs a lookahead, which RE2 cannot run: listed, but agents cannot be given it.
  server.registerTool('strict', { description: 'Takes a code', inputSchema: { code: z.string().regex(/^(?=\d)\w+$/) } }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  for (const name of state.extraTools) server.registerTool(name, { description: `The ${name} tool` }, async () => ({ content: [{ type: 'text', text: `${name} done` }] }));
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

function baseState() {
  let onHang!: () => void;
  const hangStarted = new Promise<void>((resolve) => (onHang = resolve));
  return { requests: [] as IncomingMessage['headers'][], calls: [] as string[], extraTools: [] as string[], hangStarted, onHang };
}

/** An MCP server over Streamable HTTP at /mcp: a fresh McpServer and transport per request (stateless). */
export async function startStreamableMcpServer(): Promise<FakeMcpServer> {
  const state = baseState();
  const http = createServer((request, response) => {
    state.requests.push(request.headers);
    const server = new McpServer({ name: 'fake-streamable', version: '1.0.0' });
    offerTools(server, state);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  const port = await listen(http);
  return { url: `http://127.0.0.1:${port}/mcp`, host: `127.0.0.1:${port}`, ...state, close: closer(http) };
}

/** An MCP server that speaks only the older HTTP+SSE transport: GET /sse opens the stream, POST /messages carries requests. */
export async function startSseMcpServer(): Promise<FakeMcpServer> {
  const state = baseState();
  const sessions = new Map<string, SSEServerTransport>();
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    state.requests.push(request.headers);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const server = new McpServer({ name: 'fake-sse', version: '1.0.0' });
      offerTools(server, state);
      const transport = new SSEServerTransport('/messages', response);
      sessions.set(transport.sessionId, transport);
      response.on('close', () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      void server.connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (request.method === 'POST' && url.pathname === '/messages' && transport !== undefined) {
      void transport.handlePostMessage(request, response);
      return;
    }
    response.writeHead(405, { allow: 'GET' }).end('Method Not Allowed');
  });
  const port = await listen(http);
  return { url: `http://127.0.0.1:${port}/sse`, host: `127.0.0.1:${port}`, ...state, close: closer(http) };
}

// The settings of an MCP server tool, as written through the tools routes: a remote server by its URL
// (Streamable HTTP, the older HTTP+SSE transport, or the first that answers), with the request headers
// it needs; or a local server the operator allows (stdio), by its command. `tools` chooses which of the
// server's tools agents are given.
import { Type, type Static } from '@sinclair/typebox';

export const MCP_TRANSPORTS = ['auto', 'streamable_http', 'sse'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** Most of a server's tools one MCP server tool offers the model. */
export const MAX_OFFERED_TOOLS = 50;

/** The token of RFC 9110: what a header name may be. */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";

export const McpToolConfig = Type.Object(
  {
    url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, pattern: '^https?://', description: 'A remote server: its MCP endpoint, an http(s) URL the egress rules allow (e.g. https://mcp.example.com/mcp)' }),
    ),
    transport: Type.Optional(
      Type.Union(
        MCP_TRANSPORTS.map((transport) => Type.Literal(transport)),
        { description: 'auto (default): Streamable HTTP, then the older HTTP+SSE transport when the server answers 400, 404 or 405; or only one of them' },
      ),
    ),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: HEADER_NAME }), Type.String({ maxLength: 4000, pattern: '^[^\\r\\n\\u0000]*$' }), {
        maxProperties: 20,
        description: 'Request headers the server needs (an API key…): stored sealed, read back as ****; sending **** on an update keeps the stored value',
      }),
    ),
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'A local server run over stdio: the command, exactly as the operator lists it in MCP_STDIO_COMMANDS' })),
    args: Type.Optional(Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 50, description: 'With command: its arguments' })),
    tools: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
        minItems: 1,
        maxItems: MAX_OFFERED_TOOLS,
        uniqueItems: true,
        description: `The server's tools agents are given, by their names on the server; absent: all of them (at most ${MAX_OFFERED_TOOLS})`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type McpToolConfig = Static<typeof McpToolConfig>;

/** Headers the transport writes itself, or that only the server's own connection may set. */
export const RESERVED_HEADERS = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'te',
  'transfer-encoding',
  'upgrade',
]);

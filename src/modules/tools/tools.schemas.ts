import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, named, withExamples } from '../../http/schemas.js';
import { ApiToolConfig, AttachmentConfig, McpToolConfig, RetrievalConfig, TOOL_KINDS, ToolTemplate, WebSearchConfig } from '../../tools/index.js';
import { OrganizationParams } from '../organizations/organizations.schemas.js';

/** Most tools one OpenAPI import makes. */
export const MAX_IMPORTED_TOOLS = 50;

const Kind = Type.Union(
  TOOL_KINDS.map((kind) => Type.Literal(kind)),
  { description: 'api (an HTTP operation), web_search, retrieval (over corpora), attachment (files given in the chat) or mcp (the tools of an MCP server)' },
);
const ToolName = Type.String({ pattern: '^[a-zA-Z0-9_-]{1,64}$', description: 'The name the model calls the tool by: 1 to 64 letters, digits, _ or -, unique in the organization' });
const Description = Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'What the tool does and when to use it, as the model reads it' });
const Secret = Type.String({ minLength: 1, maxLength: 4000, description: 'Write-only: the API key, token or password, stored sealed and never returned' });
const Enabled = Type.Boolean({ description: 'Whether agents that name the tool may call it (default true)' });

const managerOnly = (description: string) => `${description} (shown to owners and admins only)`;

const RemoteToolSchema = Type.Object(
  {
    name: Type.String({ description: 'Its name on the server' }),
    description: Type.String(),
    input_schema: Type.Record(Type.String(), Type.Unknown(), { description: 'The JSON Schema of its arguments, as the model is given it' }),
    problem: Type.Union([Type.String(), Type.Null()], { description: 'Why agents cannot be given it (e.g. a pattern RE2 cannot run); null when they can' }),
    function_name: Type.Union([Type.String(), Type.Null()], { description: 'The name the model calls it by, when agents are given it (chosen, usable); else null' }),
  },
  { title: 'RemoteTool' },
);

const RemoteToolsSchema = Type.Object(
  {
    listed_on: Type.String({ format: 'date-time', description: 'When the server was last asked (on saving, or POST …/refresh)' }),
    transport: Type.Union([Type.Literal('streamable_http'), Type.Literal('sse'), Type.Literal('stdio')], { description: 'The transport the server answered on' }),
    tools: Type.Array(RemoteToolSchema, { description: 'The tools the server listed, in its order' }),
    left_out: Type.Integer({ minimum: 0, description: 'Tools the server listed beyond the 500 kept' }),
    unlisted: Type.Array(Type.String(), { description: 'Chosen tools (config.tools) the server no longer lists: not offered' }),
  },
  { title: 'RemoteTools', description: managerOnly('mcp tools: the server’s tools as last listed') },
);

/** Members and viewers see id, kind, name, description and enabled; the rest is for owners and admins. */
export const ToolSchema = Type.Object({
  id: Id('Tool identifier'),
  kind: Kind,
  name: ToolName,
  description: Type.String({ description: 'What the tool does, as the model reads it' }),
  enabled: Enabled,
  organization_id: Type.Optional(Id(managerOnly('Organization of the tool'))),
  config: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: managerOnly('The kind’s settings') })),
  secret_hint: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: managerOnly('The secret’s first and last characters, e.g. sk-…abcd; null when none') })),
  remote_tools: Type.Optional(Type.Union([RemoteToolsSchema, Type.Null()])),
  created_on: Type.Optional(AuditFields('tool').created_on),
  created_by: Type.Optional(AuditFields('tool').created_by),
  modified_on: Type.Optional(AuditFields('tool').modified_on),
  modified_by: Type.Optional(AuditFields('tool').modified_by),
});
export type ToolView = Static<typeof ToolSchema>;

export const ImportedToolsSchema = Type.Object({ items: Type.Array(ToolSchema, { description: 'One tool per imported operation, in the order asked' }) }, { title: 'ImportedTools' });

export const OpenApiImportSchema = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Where to fetch the document (through the egress rules, at most 2 MiB)' })),
    document: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String({ minLength: 1 })], { description: 'The document itself: a JSON object, or JSON or YAML text' }),
    ),
    operations: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
        minItems: 1,
        maxItems: MAX_IMPORTED_TOOLS,
        description: `The operations to import, by operationId or as "METHOD /path"; all (at most ${MAX_IMPORTED_TOOLS}) when absent`,
      }),
    ),
    server_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'The API’s base URL, instead of the document’s servers (or host and basePath)' })),
    name_prefix: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9_-]{0,32}$', description: 'Put before each tool’s name (the operationId)' })),
  },
  { additionalProperties: false, description: 'Import one tool per chosen operation of an OpenAPI 3 or Swagger 2 document' },
);
export type OpenApiImportInput = Static<typeof OpenApiImportSchema>;

export const CreateApiToolBody = Type.Object(
  {
    name: Type.Optional(ToolName),
    description: Type.Optional(Description),
    config: Type.Optional(ApiToolConfig),
    template_id: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'Make the tool from this template (GET /api/v2/tool-templates)' })),
    overrides: Type.Optional(Type.Partial(ApiToolConfig, { description: 'With template_id or openapi: settings that replace the template’s or the document’s (headers are merged)' })),
    openapi: Type.Optional(OpenApiImportSchema),
    secret: Type.Optional(Secret),
    enabled: Type.Optional(Enabled),
  },
  {
    description:
      'Exactly one of config (from scratch: name, description and config required), template_id, or openapi. With openapi, name and description come from each operation and the secret is given to every tool made.',
  },
);
export type CreateApiToolInput = Static<typeof CreateApiToolBody>;

const toolFieldsOf = <T extends typeof WebSearchConfig | typeof RetrievalConfig | typeof AttachmentConfig | typeof McpToolConfig>(config: T) => ({
  name: ToolName,
  description: Type.Optional(Description),
  config,
});

// Spelt out, so that the type of each says whether it takes a secret.
export const CreateWebSearchToolBody = Type.Object({ ...toolFieldsOf(WebSearchConfig), secret: Type.Optional(Secret), enabled: Type.Optional(Enabled) });
export const CreateRetrievalToolBody = Type.Object({ ...toolFieldsOf(RetrievalConfig), enabled: Type.Optional(Enabled) });
export const CreateAttachmentToolBody = Type.Object({ ...toolFieldsOf(AttachmentConfig), enabled: Type.Optional(Enabled) });
export const CreateMcpToolBody = Type.Object({
  ...toolFieldsOf(McpToolConfig),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: 'Write-only: a token sent as Authorization: Bearer <secret> to a remote server; stored sealed, never returned' })),
  enabled: Type.Optional(Enabled),
});
export interface CreateToolInput {
  name: string;
  description?: string | undefined;
  config: Record<string, unknown>;
  secret?: string | undefined;
  enabled?: boolean | undefined;
}

export const UpdateToolBody = Type.Object(
  {
    name: Type.Optional(ToolName),
    description: Type.Optional(Description),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The whole of the kind’s settings, checked by the kind’s schema' })),
    secret: Type.Optional(Type.Union([Secret, Type.Null()], { description: 'Write-only; null removes it; absent keeps it' })),
    enabled: Type.Optional(Enabled),
  },
  { description: 'Only the fields sent change; config, when sent, replaces the settings whole.' },
);
export type UpdateToolInput = Static<typeof UpdateToolBody>;

export const ToolParams = Type.Composite([OrganizationParams, Type.Object({ tool_id: Id('Tool identifier') })]);

export const ToolListQuery = {
  kind: Type.Optional(Kind),
  enabled: Type.Optional(Type.Boolean({ description: 'Only the enabled (true) or disabled (false) tools' })),
};

export const TestToolBody = Type.Object({
  remote_tool: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'mcp tools: which of the offered tools of the server to run, by its name on the server (needed when it offers more than one)' })),
  input: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The arguments, as the model would give them (checked by the tool’s parameters)' })),
});

const SentRequestSchema = Type.Object(
  {
    method: Type.String(),
    url: Type.String({ description: 'Secrets in the query replaced by ****' }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'Credentials replaced by ****' }),
    body: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'SentRequest', description: 'The HTTP request as sent, secrets masked' },
);

export const ToolTestResultSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')], { description: 'ok: the tool answered; error: it failed (output says why)' }),
  http_status: Type.Union([Type.Integer(), Type.Null()], { description: 'What the upstream service answered, where one did' }),
  latency_ms: Type.Integer({ minimum: 0, description: 'From the start of the run to its outcome' }),
  request: Type.Union([SentRequestSchema, Type.Null()], { description: 'The last HTTP request made, secrets masked; null where none was' }),
  output: Type.String({ description: 'What the model would read' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed, in a sentence; null when ok' }),
});
export type ToolTestResult = Static<typeof ToolTestResultSchema>;

export const ToolTemplateSchema = named('ToolTemplate', Type.Composite([ToolTemplate]));
export const TemplateParams = Type.Object({ template_id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'Template identifier, e.g. open-meteo-forecast' }) });

const EXAMPLE_AUDIT = {
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'owner@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
};

named('Tool', ToolSchema, {
  id: 4,
  organization_id: 1,
  kind: 'api',
  name: 'hacker_news_item',
  description: 'A Hacker News item by its id',
  enabled: true,
  config: { method: 'GET', url: 'https://hacker-news.firebaseio.com/v0/item/{id}.json', parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, auth: { type: 'none' } },
  secret_hint: null,
  ...EXAMPLE_AUDIT,
});
named('ToolTestResult', ToolTestResultSchema, {
  status: 'ok',
  http_status: 200,
  latency_ms: 182,
  request: { method: 'GET', url: 'https://api.example.com/v1/items/42?appid=****', headers: { 'user-agent': 'agent-platform' }, body: null },
  output: '{"id":42,"title":"An item"}',
  error: null,
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateApiToolBody, {
  name: 'order_status',
  description: 'The delivery status of an order, by its number. Use it when the customer gives an order number.',
  config: {
    method: 'GET',
    url: 'https://shop.example.com/api/orders/{order_number}',
    parameters: {
      type: 'object',
      properties: { order_number: { type: 'string', pattern: '^[0-9]{4,10}$', description: 'The order number, digits only' } },
      required: ['order_number'],
    },
    auth: { type: 'api_key', in: 'header', name: 'X-Api-Key' },
  },
  secret: 'shop-api-key-3x4mpl3',
});
withExamples(CreateWebSearchToolBody, {
  name: 'web_search',
  description: 'Searches the web for recent information the documents do not hold',
  config: { provider: 'tavily', max_results: 5, fetch_pages: false },
  secret: 'tvly-3x4mpl3k3y',
});
withExamples(CreateRetrievalToolBody, {
  name: 'search_manuals',
  description: 'Searches the product manuals; use it for any question about assembling or caring for a product',
  config: { corpus_ids: [5], passages: 5 },
});
withExamples(CreateAttachmentToolBody, {
  name: 'read_attachment',
  description: 'Reads the files the user gave in this chat',
  config: { max_characters: 12000 },
});
withExamples(CreateMcpToolBody, {
  name: 'tickets',
  description: 'The ticket tracker’s MCP server',
  config: { url: 'https://mcp.tracker.example.com/mcp', transport: 'auto', headers: { 'X-Workspace': 'support' }, tools: ['search_tickets', 'get_ticket'] },
  secret: 'trk-3x4mpl3-t0k3n',
});
withExamples(UpdateToolBody, { description: 'The delivery status and tracking link of an order, by its number', enabled: true });
withExamples(TestToolBody, { input: { order_number: '104233' } });

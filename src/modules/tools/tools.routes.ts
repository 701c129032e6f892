import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Deleted, Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { OrganizationParams } from '../organizations/organizations.schemas.js';
import {
  CreateApiToolBody,
  CreateAttachmentToolBody,
  CreateMcpToolBody,
  CreateRetrievalToolBody,
  CreateWebSearchToolBody,
  ImportedToolsSchema,
  TemplateParams,
  TestToolBody,
  ToolListQuery,
  ToolParams,
  ToolSchema,
  ToolTemplateSchema,
  ToolTestResultSchema,
  UpdateToolBody,
} from './tools.schemas.js';

const tags = ['tools'];
const collection = '/api/v2/organizations/:org_id/tools';
const one = `${collection}/:tool_id`;
const FLAG_NOTE = 'API and MCP server tools need the api-tools feature flag (403 feature_disabled while it is off).';

export const toolsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tools = app.services.tools;

  app.get(
    collection,
    {
      schema: {
        operationId: 'listTools',
        tags,
        summary: 'Tools of an organization with their enabled state',
        description: 'Owners and admins see every setting but the secret (its hint only); members and viewers see id, kind, name, description and enabled.',
        params: OrganizationParams,
        querystring: PageQuery(app.config.limits.pageSizeMax, ToolListQuery),
        response: responses({ 200: Envelope(Page(ToolSchema)) }, [404]),
      },
    },
    async (request) => {
      const { page, page_size, kind, enabled } = request.query;
      return ok('Tools', asPage(await tools.list(request.actor, request.params.org_id, { kind, enabled }, windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.post(
    `${collection}/api`,
    {
      schema: {
        operationId: 'createApiTool',
        tags,
        summary: 'Create an API tool (HTTP operation, from scratch or a template)',
        description:
          `Exactly one of: config (a tool written whole, with name and description), template_id (+ overrides), or openapi (an OpenAPI 3 / Swagger 2 document, by URL or in the body: one tool per chosen operation; data is then { items }). ` +
          `The URL's host must be one the server may reach (400 otherwise). secret is stored sealed and never returned. A document over 2 MiB, or whose schemas expand too far, is a 413. ${FLAG_NOTE}`,
        params: OrganizationParams,
        body: CreateApiToolBody,
        response: responses({ 201: Type.Union([Envelope(ToolSchema), Envelope(ImportedToolsSchema)]) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('API tool added', await tools.createApi(request.actor, request.params.org_id, request.body))),
  );

  const otherKinds = [
    { path: 'web-search', kind: 'web_search', body: CreateWebSearchToolBody, operationId: 'createWebSearchTool', summary: 'Create a web search tool', note: 'tavily and brave need the API key as secret; searxng needs base_url.' },
    { path: 'retrieval', kind: 'retrieval', body: CreateRetrievalToolBody, operationId: 'createRetrievalTool', summary: 'Create a retrieval tool over corpora', note: 'Every corpus must be one of the organization (400 otherwise); at run time the caller’s own permissions decide which are searched.' },
    { path: 'attachment', kind: 'attachment', body: CreateAttachmentToolBody, operationId: 'createAttachmentTool', summary: 'Create an attachment tool (files given in a chat)', note: 'The tool reads the files given in the answer’s own thread only.' },
    {
      path: 'mcp',
      kind: 'mcp',
      body: CreateMcpToolBody,
      operationId: 'createMcpTool',
      summary: 'Add an MCP server as a tool (its chosen tools are given to agents)',
      note:
        'config.url (a remote server, through the egress rules) or config.command (a local server the operator lists in MCP_STDIO_COMMANDS). The server is asked for its tools now (502 or 504 when it cannot be); each chosen one must be listed (400). Header values and the secret are stored sealed, read back as ****. ' +
        FLAG_NOTE,
    },
  ] as const;
  for (const { path, kind, body, operationId, summary, note } of otherKinds) {
    app.post(
      `${collection}/${path}`,
      {
        schema: {
          operationId,
          tags,
          summary,
          description: `${note} Without description, one that tells the model what the tool does is given.`,
          params: OrganizationParams,
          body,
          response: responses({ 201: Envelope(ToolSchema) }, kind === 'mcp' ? [403, 404, 409, 502, 504] : [403, 404, 409]),
        },
      },
      async (request, reply) => reply.code(201).send(ok('Tool added', await tools.create(request.actor, request.params.org_id, kind, request.body))),
    );
  }

  app.post(
    `${one}/refresh`,
    {
      schema: {
        operationId: 'refreshTool',
        tags,
        summary: 'List the tools of an MCP server tool’s server again',
        description: `Asks the server for its tools now and keeps them (remote_tools); chosen tools it no longer lists are not offered (remote_tools.unlisted). 400 for a tool of another kind; 502 or 504 when the server cannot be asked, and nothing changes. ${FLAG_NOTE}`,
        params: ToolParams,
        response: responses({ 200: Envelope(ToolSchema) }, [403, 404, 502, 504]),
      },
    },
    async (request) => ok('Tool refreshed', await tools.refresh(request.actor, request.params.org_id, request.params.tool_id)),
  );

  app.get(
    one,
    { schema: { operationId: 'getTool', tags, summary: 'One tool', params: ToolParams, response: responses({ 200: Envelope(ToolSchema) }, [404]) } },
    async (request) => ok('Tool', await tools.get(request.actor, request.params.org_id, request.params.tool_id)),
  );

  app.put(
    one,
    {
      schema: {
        operationId: 'updateTool',
        tags,
        summary: 'Update a tool',
        description: `Only the fields sent change; config, when sent, replaces the settings whole and is checked by the kind's schema. Without secret the secret is kept; secret: null removes it. ${FLAG_NOTE}`,
        params: ToolParams,
        body: UpdateToolBody,
        response: responses({ 200: Envelope(ToolSchema) }, [403, 404, 409, 502, 504]),
      },
    },
    async (request) => ok('Tool updated', await tools.update(request.actor, request.params.org_id, request.params.tool_id, request.body)),
  );

  app.delete(
    one,
    {
      schema: {
        operationId: 'deleteTool',
        tags,
        summary: 'Delete a tool',
        description: 'Agents that named it no longer call it.',
        params: ToolParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Tool removed', await tools.remove(request.actor, request.params.org_id, request.params.tool_id)),
  );

  for (const enabled of [true, false]) {
    app.post(
      `${one}/${enabled ? 'enable' : 'disable'}`,
      {
        schema: {
          operationId: enabled ? 'enableTool' : 'disableTool',
          tags,
          summary: `${enabled ? 'Enable' : 'Disable'} a tool for all agents of the organization`,
          description: enabled ? 'Agents that name the tool may call it again.' : 'Agents that name the tool keep it in their configuration but do not call it.',
          params: ToolParams,
          response: responses({ 200: Envelope(ToolSchema) }, [403, 404]),
        },
      },
      async (request) => ok(`Tool ${enabled ? 'enabled' : 'disabled'}`, await tools.setEnabled(request.actor, request.params.org_id, request.params.tool_id, enabled)),
    );
  }

  app.post(
    `${one}/test`,
    {
      schema: {
        operationId: 'testTool',
        tags,
        summary: 'Run a tool once with given input',
        description:
          `Runs the tool as the caller, outside any thread, under the tool deadline, and answers 200 whether or not it succeeded: status, http_status, latency_ms, the request as sent (secrets masked) and the output the model would read. Input that does not match the tool's parameters is a 400. ${FLAG_NOTE}`,
        params: ToolParams,
        body: TestToolBody,
        response: responses({ 200: Envelope(ToolTestResultSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Tool tested', await tools.test(request.actor, request.params.org_id, request.params.tool_id, request.body.input ?? {}, request.body.remote_tool)),
  );

  app.get(
    '/api/v2/tool-templates',
    {
      schema: {
        operationId: 'listToolTemplates',
        tags,
        summary: 'API tool templates',
        description: 'Public APIs described as data, shipped with the server; make a tool of one with POST …/tools/api { template_id }.',
        querystring: PageQuery(app.config.limits.pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(ToolTemplateSchema)) }),
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      return ok('Tool templates', asPage(tools.templates(windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.get(
    '/api/v2/tool-templates/:template_id',
    {
      schema: {
        operationId: 'getToolTemplate',
        tags,
        summary: 'One API tool template',
        params: TemplateParams,
        response: responses({ 200: Envelope(ToolTemplateSchema) }, [404]),
      },
    },
    async (request) => ok('Tool template', tools.template(request.params.template_id)),
  );
};

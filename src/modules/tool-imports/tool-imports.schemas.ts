import { Type, type Static } from '@sinclair/typebox';
import { Id, named, NullableTimestamp, Timestamp, withExamples } from '../../http/schemas.js';
import { ApiToolConfig } from '../../tools/index.js';
import { OrganizationParams } from '../organizations/organizations.schemas.js';
import { OperationReportSchema } from '../tools/tools.schemas.js';

export { OperationReportSchema };
export type OperationReport = Static<typeof OperationReportSchema>;

export const StartToolImportBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Where to fetch the document (through the egress rules, at most LIMIT_TOOL_IMPORT_BYTES)' })),
    document: Type.Optional(
      // Text not empty, checked by the service: a `minLength` would have every document's characters
      // counted on the event loop (80 ms for GitHub's 13 MB).
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()], {
        description: 'The document itself: a JSON object, or JSON or YAML text, not empty (this route takes bodies up to LIMIT_TOOL_IMPORT_BYTES beside the JSON body limit)',
      }),
    ),
    operations: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 100_000, description: 'The operations to import, by operationId or as "METHOD /path"; every one when absent' })),
    server_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'The API’s base URL, instead of the document’s servers (or host and basePath)' })),
    name_prefix: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9_-]{0,32}$', description: 'Put before each tool’s name (the operationId)' })),
    overrides: Type.Optional(Type.Partial(ApiToolConfig, { description: 'Settings that replace the document’s in every tool made (headers are merged)' })),
    secret: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: 'Write-only: given to every tool made, kept sealed until the import ends' })),
    enabled: Type.Optional(Type.Boolean({ description: 'Whether the tools made are enabled (default true)' })),
    document_ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'With url only: the document_ref a preview of that url answered, so that the document it fetched is imported instead of fetching the url again (used once; one the server no longer keeps is ignored and the url fetched)',
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of url and document.' },
);
export type StartToolImportInput = Static<typeof StartToolImportBody>;

export const ToolImportSchema = named(
  'ToolImport',
  Type.Object({
    id: Id('Import identifier'),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')], {
      description: 'queued, running, completed (every operation imported or skipped: see the report), failed (the document could not be read: error says why)',
    }),
    url: Type.Union([Type.String(), Type.Null()], { description: 'Where the document is fetched from; null when it was given in the request' }),
    operations: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'The operations chosen; null: every one' }),
    server_url: Type.Union([Type.String(), Type.Null()]),
    name_prefix: Type.String(),
    secret_hint: Type.Union([Type.String(), Type.Null()], { description: 'The secret given to every tool, e.g. ghp…abcd; null when none' }),
    operations_total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Operations to import; null until the document is read' }),
    operations_done: Type.Integer({ minimum: 0, description: 'Operations imported or skipped so far' }),
    imported: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
    progress: Type.Number({ minimum: 0, maximum: 1, description: 'operations_done / operations_total (1 once completed)' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the import failed (the document could not be fetched or read); null otherwise' }),
    started_on: NullableTimestamp('When a worker began it'),
    finished_on: NullableTimestamp('When it completed or failed'),
    created_on: Timestamp('When it was asked for'),
    created_by: Type.String({ description: 'E-mail of who asked for it' }),
  }),
  {
    id: 3,
    status: 'running',
    url: 'https://raw.githubusercontent.com/github/rest-api-description/main/descriptions/api.github.com/api.github.com.json',
    operations: null,
    server_url: null,
    name_prefix: 'gh_',
    secret_hint: 'ghp…abcd',
    operations_total: 1223,
    operations_done: 600,
    imported: 599,
    skipped: 1,
    progress: 0.491,
    error: null,
    started_on: '2026-11-20T10:15:30.500Z',
    finished_on: null,
    created_on: '2026-11-20T10:15:30.123Z',
    created_by: 'owner@example.com',
  },
);
export type ToolImportView = Static<typeof ToolImportSchema>;

export const ToolImportParams = Type.Composite([OrganizationParams, Type.Object({ import_id: Id('Import identifier') })]);

export const OperationsQuery = {
  status: Type.Optional(Type.Union([Type.Literal('imported'), Type.Literal('skipped')], { description: 'Only the operations imported, or only those skipped' })),
};

export const PreviewToolImportBody = Type.Object(
  {
    url: StartToolImportBody.properties.url,
    document: StartToolImportBody.properties.document,
  },
  { additionalProperties: false, description: 'Exactly one of url and document.' },
);
export type PreviewToolImportInput = Static<typeof PreviewToolImportBody>;

export const ToolImportPreviewSchema = named(
  'ToolImportPreview',
  Type.Object({
    title: Type.Union([Type.String(), Type.Null()], { description: 'The document’s info.title' }),
    version: Type.String({ description: 'openapi (3.x.y) or swagger (2.0)' }),
    document_ref: Type.Union([Type.String(), Type.Null()], {
      description: 'For a document fetched from a url: what an import of that url in this organization may give as document_ref, within 10 minutes, to import this very document without fetching it again; null for a document given, or one too large to keep',
    }),
    operations: Type.Array(
      Type.Object({
        operation: Type.String({ description: 'Its operationId, or METHOD /path when it has none: what operations of an import names it by' }),
        method: Type.String(),
        path: Type.String(),
        summary: Type.String({ description: 'Its summary, else the first line of its description; empty when none' }),
        pointer: Type.String({ description: 'JSON pointer of the operation in the document' }),
      }),
      { description: 'Every operation of the document, in its order' },
    ),
  }),
  {
    title: 'Shop',
    version: '3.0.3',
    document_ref: 'q3x9Z0cLk2m8VnR4tY7wAb1d',
    operations: [{ operation: 'getOrder', method: 'GET', path: '/orders/{id}', summary: 'One order', pointer: '/paths/~1orders~1{id}/get' }],
  },
);
export type ToolImportPreview = Static<typeof ToolImportPreviewSchema>;

withExamples(PreviewToolImportBody, { url: 'https://api.example.com/openapi.json' });
withExamples(StartToolImportBody, { url: 'https://api.example.com/openapi.json', name_prefix: 'shop_', secret: 'shop-api-key-3x4mpl3' });

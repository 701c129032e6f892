import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, NullableTimestamp, named, withExamples } from '../../http/schemas.js';
import { GRAPH_ERROR_CODES, ScheduleMinutes } from '../sources/index.js';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s connectors' });
// Azure tenant and application ids are GUIDs; a tenant may also be named by its domain.
const TenantId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9.-]+$', description: 'Directory (tenant) id of the Azure app registration, or its domain' });
const ClientId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9-]+$', description: 'Application (client) id of the Azure app registration' });
const ClientSecret = Type.String({ minLength: 1, maxLength: 2000, pattern: '^\\S+$', description: 'Write-only: the app registration’s client secret, stored sealed and never returned' });
const GraphId = (what: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 500, pattern: '^[A-Za-z0-9!,._:-]+$', description: what }), Type.Null()], { description: `${what}; null when the other is given` });
const FolderPath = Type.Union([Type.String({ minLength: 1, maxLength: 1000, pattern: '^[^\\u0000-\\u001f]*\\S[^\\u0000-\\u001f]*$' }), Type.Null()], {
  description: 'A folder of the library, e.g. "Policies/HR" (slashes at either end ignored); null: the whole library',
});
const Schedule = ScheduleMinutes;

export const SYNC_STATUSES = ['never', 'queued', 'running', 'succeeded', 'failed'] as const;

export const LastSyncSchema = Type.Object({
  status: Type.Union(SYNC_STATUSES.map((status) => Type.Literal(status)), { description: 'never synced, queued, running, succeeded or failed' }),
  started_on: NullableTimestamp('When the last (or current) sync started'),
  finished_on: NullableTimestamp('When it ended; null while it runs'),
  duration_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'How long it took; null until it ends' }),
  added: Type.Integer({ minimum: 0, description: 'Documents added to the corpus' }),
  updated: Type.Integer({ minimum: 0, description: 'Documents replaced because the file changed (downloaded and processed again)' }),
  removed: Type.Integer({ minimum: 0, description: 'Documents removed: files deleted or moved out of the folder' }),
  failed: Type.Integer({ minimum: 0, description: 'Files that could not be brought in (see failures)' }),
  failures: Type.Array(Type.Object({ name: Type.String(), reason: Type.String() }), { description: 'The first 50 files that failed, with why' }),
  error_code: Type.Union([...GRAPH_ERROR_CODES.map((code) => Type.Literal(code)), Type.Null()], {
    description: 'Why the sync failed: auth (credentials refused), forbidden (no permission on the library), not_found (site, drive or folder), throttled, upstream (Graph 5xx), unreachable, bad_response; null when it did not',
  }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'What went wrong, in a sentence (never a secret)' }),
});

export const ConnectorSchema = Type.Object({
  id: Id('Connector identifier'),
  name: Name,
  corpus_id: Id('The corpus the library’s documents go to'),
  tenant_id: Type.String({ description: 'Directory (tenant) id' }),
  client_id: Type.String({ description: 'Application (client) id' }),
  client_secret_hint: Type.String({ description: 'The secret’s first and last characters; the secret itself is never returned' }),
  site_id: Type.Union([Type.String(), Type.Null()], { description: 'SharePoint site id (its default document library is synced)' }),
  drive_id: Type.Union([Type.String(), Type.Null()], { description: 'Drive (document library or OneDrive) id' }),
  folder_path: Type.Union([Type.String(), Type.Null()], { description: 'The folder synced; null: the whole library' }),
  schedule_minutes: Schedule,
  next_sync_on: NullableTimestamp('When the next scheduled sync is due; null without a schedule'),
  last_sync: LastSyncSchema,
  ...AuditFields('connector'),
});
export type ConnectorView = Static<typeof ConnectorSchema>;

export const CreateConnectorBody = Type.Object({
  name: Name,
  corpus_id: Id('The corpus the documents go to; the caller needs write permission on it'),
  tenant_id: TenantId,
  client_id: ClientId,
  client_secret: ClientSecret,
  site_id: Type.Optional(GraphId('SharePoint site id, e.g. contoso.sharepoint.com,1c2d…,5e6f…')),
  drive_id: Type.Optional(GraphId('Drive id, e.g. b!Aa1…')),
  folder_path: Type.Optional(FolderPath),
  schedule_minutes: Type.Optional(Schedule),
});
export type CreateConnectorInput = Static<typeof CreateConnectorBody>;

export const UpdateConnectorBody = Type.Partial(Type.Omit(CreateConnectorBody, ['corpus_id']), {
  description: 'Only the fields sent change. Without client_secret the secret is kept. Changing the library or folder makes the next sync a full one.',
});
export type UpdateConnectorInput = Static<typeof UpdateConnectorBody>;

export const ConnectorParams = Type.Object({ connector_id: Id('Connector identifier') });

named('Connector', ConnectorSchema, {
  id: 4,
  name: 'HR policies',
  corpus_id: 12,
  tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  client_id: '1b2c3d4e-0000-4000-8000-000000000001',
  client_secret_hint: 'Abc…wxyz',
  site_id: null,
  drive_id: 'b!Aa1Bb2Cc3',
  folder_path: 'Policies/HR',
  schedule_minutes: 60,
  next_sync_on: '2026-11-20T11:15:30.123Z',
  last_sync: {
    status: 'succeeded',
    started_on: '2026-11-20T10:15:30.123Z',
    finished_on: '2026-11-20T10:15:34.456Z',
    duration_ms: 4333,
    added: 12,
    updated: 1,
    removed: 2,
    failed: 1,
    failures: [{ name: 'scan.tiff', reason: 'this kind of file cannot be processed' }],
    error_code: null,
    error: null,
  },
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'owner@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateConnectorBody, {
  name: 'HR policies',
  corpus_id: 5,
  tenant_id: 'contoso.onmicrosoft.com',
  client_id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  client_secret: 'Qx8Q~3x4mpl3S3cr3tF0rD0cs',
  site_id: 'contoso.sharepoint.com,1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f,5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  folder_path: 'Policies/2026',
  schedule_minutes: 60,
});
withExamples(UpdateConnectorBody, { folder_path: 'Policies', schedule_minutes: 1440 });

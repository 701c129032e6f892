import { Type, type Static } from '@sinclair/typebox';
import { Id, NullableTimestamp, PageQuery, Timestamp, mediaWithExample, named, withExamples } from '../../http/schemas.js';

export const OrganizationParams = Type.Object({ org_id: Id('Identifier of the organization: the caller’s own; any other is not found') });

const organizationFields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  description: Type.String({ maxLength: 2000 }),
};

export const OrganizationSchema = Type.Object({
  id: Id('Organization identifier'),
  ...organizationFields,
  logo_url: Type.Union([Type.String(), Type.Null()], { description: 'Path of the logo; null while there is none' }),
  logo_content_type: Type.Union([Type.String(), Type.Null()], { description: 'Type of the logo, decided from its content' }),
  created_on: Timestamp('When the organization was created'),
  modified_on: Timestamp('When the organization last changed'),
  modified_by: Type.Union([Type.String(), Type.Null()], { description: 'E-mail of who last changed it' }),
});
export type OrganizationView = Static<typeof OrganizationSchema>;

export const UpdateOrganizationBody = Type.Partial(Type.Object(organizationFields), { description: 'Only the fields sent change' });

export const organizationUsersQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the e-mail or a name contains, ignoring case' })),
    is_active: Type.Optional(Type.Boolean({ description: 'true: active users only; false: deactivated ones only' })),
  });

const LlmConfigurationReference = (purpose: string) =>
  Type.Union([Id(`LLM configuration that serves ${purpose}`), Type.Null()], { description: `LLM configuration that serves ${purpose}; null for none` });

const deploymentFields = {
  chat: LlmConfigurationReference('chat'),
  embedding: LlmConfigurationReference('embedding'),
  image: LlmConfigurationReference('image generation'),
  judge: LlmConfigurationReference('evaluation judging'),
};

export const ModelDeploymentSchema = Type.Object({
  ...deploymentFields,
  modified_on: NullableTimestamp('When the deployment last changed; null while never set'),
  modified_by: Type.Union([Type.String(), Type.Null()], { description: 'E-mail of who last changed it' }),
});
export type ModelDeploymentView = Static<typeof ModelDeploymentSchema>;

export const UpdateModelDeploymentBody = Type.Partial(Type.Object(deploymentFields), {
  description: 'Only the purposes sent change; null clears one.',
});
export type UpdateModelDeploymentInput = Static<typeof UpdateModelDeploymentBody>;

/** A logo: the bytes as uploaded, served with the type decided from them. */
export const LogoResponse = Type.Unsafe<Buffer>({
  description: 'The logo image (PNG, JPEG, GIF or WebP)',
  content: Object.fromEntries(['image/png', 'image/jpeg', 'image/gif', 'image/webp'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
});

/** The multipart/form-data form of a logo upload (documentation: the route reads the one part itself). */
const LogoUploadForm = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The image: one file part (any part name)' }) },
  { title: 'OrganizationLogoUploadForm' },
);

/** The media type of a logo upload, for x-document. */
export const LogoUploadContent = {
  'multipart/form-data': mediaWithExample(LogoUploadForm, { file: '(the bytes of logo.png)' }, { encoding: { file: { contentType: 'image/png, image/jpeg, image/gif, image/webp' } } }),
};

export const LogoUploadedSchema = Type.Object({
  logo_url: Type.String(),
  logo_content_type: Type.String({ description: 'Decided from the bytes' }),
  size: Type.Integer({ description: 'Bytes stored' }),
});

// The names these schemas have in the OpenAPI document, with an example each.
named('Organization', OrganizationSchema, {
  id: 1,
  name: 'Example Ltd',
  description: '',
  logo_url: '/api/v2/organizations/1/logo',
  logo_content_type: 'image/png',
  created_on: '2026-11-20T10:15:30.123Z',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
});
named('ModelDeployment', ModelDeploymentSchema, {
  chat: 2,
  embedding: null,
  image: null,
  judge: null,
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
});
named('LogoUploaded', LogoUploadedSchema, { logo_url: '/api/v2/organizations/1/logo', logo_content_type: 'image/png', size: 18342 });

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(UpdateOrganizationBody, { name: 'Example Ltd', description: 'Outdoor furniture, made in Lyon' });
withExamples(UpdateModelDeploymentBody, { chat: 2, judge: 4, image: null });

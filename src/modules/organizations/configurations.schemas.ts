import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, NullableTimestamp, named, withExamples } from '../../http/schemas.js';
import { OrganizationParams } from './organizations.schemas.js';

const Settings = Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), {
  maxProperties: 500,
  description: 'Any JSON object of settings. Readable by everyone in the organization: keep no secrets here.',
});

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s configurations' });

export const ConfigurationSchema = Type.Object({
  id: Id('Configuration identifier'),
  organization_id: Id('Organization of the configuration'),
  name: Name,
  settings: Settings,
  is_active: Type.Boolean({ description: 'Whether this is the organization’s active configuration; one at most is' }),
  activated_on: NullableTimestamp('When it became the active one; null while inactive'),
  ...AuditFields('configuration'),
});
export type ConfigurationView = Static<typeof ConfigurationSchema>;

export const CreateConfigurationBody = Type.Object({
  name: Name,
  settings: Type.Optional(Settings),
  activate: Type.Optional(Type.Boolean({ description: 'true: make it the active configuration at once' })),
});
export type CreateConfigurationInput = Static<typeof CreateConfigurationBody>;

export const UpdateConfigurationBody = Type.Object(
  { name: Type.Optional(Name), settings: Type.Optional(Settings) },
  { description: 'Only the fields sent change; settings replaces the whole object. Activation has its own operation.' },
);
export type UpdateConfigurationInput = Static<typeof UpdateConfigurationBody>;

export const ConfigurationParams = Type.Composite([OrganizationParams, Type.Object({ configuration_id: Id('Configuration identifier') })]);

// The name this schema has in the OpenAPI document, with an example.
named('Configuration', ConfigurationSchema, {
  id: 2,
  organization_id: 1,
  name: 'Production',
  settings: { default_language: 'en' },
  is_active: true,
  activated_on: '2026-11-20T10:15:30.123Z',
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'owner@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateConfigurationBody, { name: 'Staging', settings: { default_language: 'fr', show_sources: true }, activate: false });
withExamples(UpdateConfigurationBody, { settings: { default_language: 'en', show_sources: true } });

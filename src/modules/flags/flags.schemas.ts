import { Type } from '@sinclair/typebox';
import { NullableTimestamp, named, withExamples } from '../../http/schemas.js';
import { FLAG_NAMES } from './feature-flags.js';

export const FlagName = Type.Union(
  FLAG_NAMES.map((flag) => Type.Literal(flag)),
  { description: 'A flag of the catalogue' },
);

export const FlagSchema = Type.Object({
  flag: FlagName,
  enabled: Type.Boolean({ description: 'Whether the feature is on for the organization' }),
  default_enabled: Type.Boolean({ description: 'The state of an organization that never changed the flag' }),
  summary: Type.String(),
  gates: Type.String({ description: 'What the flag gates: those operations answer 403 while it is off' }),
  modified_on: NullableTimestamp('When the organization last changed the flag; null while it has its default'),
  modified_by: Type.Union([Type.String(), Type.Null()], { description: 'E-mail of who last changed it' }),
});

export const FlagParams = Type.Object({ flag: FlagName });

export const SetFlagBody = Type.Object({
  enabled: Type.Boolean({ description: 'true to turn the feature on, false to turn it off' }),
});

// The name this schema has in the OpenAPI document, with an example.
named('FeatureFlag', FlagSchema, {
  flag: 'agent-alias',
  enabled: true,
  default_enabled: true,
  summary: 'Agent alias',
  gates: 'Giving an agent an alias on create, update or restore',
  modified_on: null,
  modified_by: null,
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(SetFlagBody, { enabled: true });

import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';

export const TeamRoleSchema = Type.Union([Type.Literal('lead'), Type.Literal('editor'), Type.Literal('viewer')], {
  description: 'lead: manages the team and its agents; editor: changes its agents; viewer: reads',
});

const teamFields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s teams' }),
  description: Type.String({ maxLength: 2000 }),
};

export const TeamSchema = Type.Object({
  id: Id('Team identifier'),
  organization_id: Id('Organization of the team'),
  ...teamFields,
  member_count: Type.Integer({ minimum: 0 }),
  caller_role: Type.Union([TeamRoleSchema, Type.Null()], { description: 'The caller’s role in the team; null when not a member' }),
  ...AuditFields('team'),
});
export type TeamView = Static<typeof TeamSchema>;

export const CreateTeamBody = Type.Object(
  { name: teamFields.name, description: Type.Optional(teamFields.description) },
  { description: 'The creator becomes the team’s lead' },
);

export const UpdateTeamBody = Type.Partial(Type.Object(teamFields), { description: 'Only the fields sent change' });

export const listTeamsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the name contains, ignoring case' })),
    mine: Type.Optional(Type.Boolean({ description: 'true: only teams the caller belongs to' })),
  });

export const TeammateSchema = Type.Object({
  team_id: Id('Team identifier'),
  user_id: Id('User identifier'),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  is_active: Type.Boolean({ description: 'False once the user is deactivated' }),
  role: TeamRoleSchema,
  added_on: Timestamp('When the user joined the team'),
  added_by: Type.String({ description: 'E-mail of who added the user' }),
  modified_on: Timestamp('When the role last changed'),
});
export type TeammateView = Static<typeof TeammateSchema>;

export const AddTeammateBody = Type.Object({ user_id: Id('The user to add'), role: TeamRoleSchema });
export const ChangeTeammateBody = Type.Object({ role: TeamRoleSchema });

export const RemovedTeammateSchema = Type.Object({ team_id: Id('Team identifier'), user_id: Id('User identifier') });

/** Brief teams, as a project carries them on request. */
export const TeamBriefSchema = Type.Object({ id: Id('Team identifier'), name: Type.String(), description: Type.String() });

// The names these schemas have in the OpenAPI document, with an example each.
named('Team', TeamSchema, {
  id: 3,
  organization_id: 1,
  name: 'Support',
  description: 'First-line support',
  member_count: 4,
  caller_role: 'lead',
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'ada@example.com',
});
named('Teammate', TeammateSchema, {
  team_id: 3,
  user_id: 4,
  email: 'grace@example.com',
  first_name: 'Grace',
  last_name: 'Hopper',
  is_active: true,
  role: 'editor',
  added_on: '2026-11-20T10:15:30.123Z',
  added_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
});
named('RemovedTeammate', RemovedTeammateSchema);
named('TeamBrief', TeamBriefSchema);

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateTeamBody, { name: 'Customer support', description: 'Answers customers by mail and chat' });
withExamples(UpdateTeamBody, { description: 'Answers customers by mail, chat and phone' });
withExamples(AddTeammateBody, { user_id: 14, role: 'editor' });
withExamples(ChangeTeammateBody, { role: 'lead' });

import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';
import { TeamBriefSchema } from '../teams/teams.schemas.js';

const projectFields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s projects' }),
  description: Type.String({ maxLength: 2000 }),
  team_ids: Type.Array(Id('Team identifier'), { maxItems: 100, description: 'Teams working in the project; each must be the organization’s' }),
};

const UserBrief = Type.Object({ id: Id('User identifier'), email: Type.String(), first_name: Type.String(), last_name: Type.String() });

export const ProjectSchema = Type.Object({
  id: Id('Project identifier'),
  organization_id: Id('Organization of the project'),
  name: projectFields.name,
  description: projectFields.description,
  team_ids: Type.Array(Id('Team identifier')),
  users: Type.Array(UserBrief, { description: 'Members of the project' }),
  teams: Type.Optional(Type.Array(TeamBriefSchema, { description: 'With ?include=teams: the project’s teams' })),
  ...AuditFields('project'),
});
export type ProjectView = Static<typeof ProjectSchema>;

export const CreateProjectBody = Type.Object(
  { name: projectFields.name, description: Type.Optional(projectFields.description), team_ids: Type.Optional(projectFields.team_ids) },
  { description: 'The creator becomes the project’s first member' },
);
export type CreateProjectInput = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Type.Partial(Type.Object(projectFields), { description: 'Only the fields sent change; team_ids replaces the teams' });
export type UpdateProjectInput = Static<typeof UpdateProjectBody>;

export const IncludeQuery = Type.Object({
  include: Type.Optional(Type.Literal('teams', { description: 'teams: add each project’s team details' })),
});

export const listProjectsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the name or description contains, ignoring case' })),
    team_id: Type.Optional(Id('Only projects this team works in')),
    mine: Type.Optional(Type.Boolean({ description: 'true: only projects the caller is a member of' })),
    ...IncludeQuery.properties,
  });

export const ProjectsByIdsBody = Type.Object({
  ids: Type.Array(Id('Project identifier'), { minItems: 1, maxItems: 100, description: 'Unknown ids, and other organizations’ projects, are left out' }),
});

export const filterProjectsBody = (pageSizeMax: number) =>
  withExamples(
    Type.Object({
      q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      ids: Type.Optional(Type.Array(Id('Project identifier'), { maxItems: 1000 })),
      team_ids: Type.Optional(Type.Array(Id('Team identifier'), { maxItems: 1000, description: 'Projects any of these teams work in' })),
      user_ids: Type.Optional(Type.Array(Id('User identifier'), { maxItems: 1000, description: 'Projects any of these users is a member of' })),
      created_by: Type.Optional(Type.Array(Id('User identifier'), { maxItems: 1000 })),
      created_after: Type.Optional(Timestamp('Created at or after')),
      created_before: Type.Optional(Timestamp('Created before')),
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: pageSizeMax, default: 20 })),
    }),
    { q: 'launch', team_ids: [3], created_after: '2026-01-01T00:00:00.000Z', page: 1, page_size: 20 },
  );
export type FilterProjectsInput = Static<ReturnType<typeof filterProjectsBody>>;

export const AddProjectUsersBody = Type.Object({
  user_ids: Type.Array(Id('User identifier'), { minItems: 1, maxItems: 100, description: 'Users of the organization; those already members stay' }),
});

// The name this schema has in the OpenAPI document, with an example.
named('Project', ProjectSchema, {
  id: 9,
  organization_id: 1,
  name: 'Returns portal',
  description: 'Everything about returns',
  team_ids: [3],
  users: [{ id: 2, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' }],
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'ada@example.com',
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateProjectBody, { name: 'Spring catalogue launch', description: 'Agents answering questions about the new catalogue', team_ids: [3] });
withExamples(UpdateProjectBody, { description: 'Agents answering questions about the spring and summer catalogues', team_ids: [3, 4] });
withExamples(ProjectsByIdsBody, { ids: [9, 11] });
withExamples(AddProjectUsersBody, { user_ids: [14, 15] });

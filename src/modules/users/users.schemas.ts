import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/schemas.js';

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')], {
  description: 'Role in the organization',
});

export const UserSchema = Type.Object(
  {
    id: Id('User identifier'),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    role: Role,
    organization_id: Id('Organization of the user'),
    is_active: Type.Boolean({ description: 'False once the user is deactivated' }),
    created_on: Timestamp('When the user was created'),
    modified_on: Timestamp('When the user last changed'),
  },
  { description: 'A user; never carries a password or its hash' },
);
export type UserView = Static<typeof UserSchema>;

export const MeSchema = Type.Composite([
  UserSchema,
  Type.Object({
    organization: Type.Object({ id: Id('Organization identifier'), name: Type.String() }),
    teams: Type.Array(Type.Object({ id: Id('Team identifier'), name: Type.String(), role: Type.String() }), {
      description: 'Teams the user belongs to, with the role in each',
    }),
  }),
]);

import { Type, type Static } from '@sinclair/typebox';
import { Id, NullableTimestamp, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')], {
  description: 'Role in the organization',
});

const Email = Type.String({ format: 'email', maxLength: 254, description: 'Unique across the server; stored lower-cased' });
const Name = (description: string) => Type.String({ maxLength: 200, description });
/** The same rule as ADMIN_PASSWORD: long enough, and any characters. */
export const NewPassword = Type.String({ minLength: 12, maxLength: 1024, description: 'At least 12 characters' });

export const UserSchema = Type.Object(
  {
    id: Id('User identifier'),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    role: Role,
    organization_id: Id('Organization of the user'),
    is_active: Type.Boolean({ description: 'False once the user is deactivated' }),
    deactivated_on: NullableTimestamp('When the user was deactivated'),
    created_on: Timestamp('When the user was created'),
    created_by: Type.Union([Type.String(), Type.Null()], { description: 'E-mail of who invited the user; null for the first owner' }),
    modified_on: Timestamp('When the user last changed'),
    modified_by: Type.Union([Type.String(), Type.Null()], { description: 'E-mail of who last changed the user' }),
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

export const listUsersQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the e-mail or a name contains, ignoring case' })),
    role: Type.Optional(Role),
    is_active: Type.Optional(Type.Boolean({ description: 'true: active users only; false: deactivated ones only' })),
  });

export const CreateUserBody = Type.Object(
  {
    email: Email,
    first_name: Type.Optional(Name('Given name')),
    last_name: Type.Optional(Name('Family name')),
    role: Type.Optional(Role),
    password: Type.Optional(NewPassword),
  },
  {
    description:
      'Without a password the user is invited: the answer carries a one-time set_password_token for POST /api/v2/auth/set-password. ' +
      'Role defaults to member; only owners make owners.',
  },
);
export type CreateUserInput = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    first_name: Type.Optional(Name('Given name')),
    last_name: Type.Optional(Name('Family name')),
    email: Type.Optional(Email),
    role: Type.Optional(Role),
    password: Type.Optional(NewPassword),
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Required with password when the user has one' })),
  },
  {
    description:
      'Only the fields sent change. A user changes their own names and password; owners and admins change names, e-mail and role ' +
      'of others (only owners touch owners). Nobody raises their own role; the last owner keeps the role.',
  },
);
export type UpdateUserInput = Static<typeof UpdateUserBody>;

export const PasswordTokenSchema = Type.Object({
  set_password_token: Type.String({ description: 'Shown this once; stored only as a hash. Use it with POST /api/v2/auth/set-password' }),
  set_password_token_expires_on: Timestamp('When the token stops working'),
});

export const CreatedUserSchema = Type.Object({
  user: UserSchema,
  set_password_token: Type.Union([Type.String(), Type.Null()], {
    description: 'Present when no password was given: shown this once, stored only as a hash',
  }),
  set_password_token_expires_on: NullableTimestamp('When the token stops working'),
});

export const SetPasswordBody = withExamples(
  Type.Object({
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The set_password_token given when the user was invited' }),
    password: NewPassword,
  }),
  { token: 'apt_4b1e…', password: 'a long passphrase of my own' },
);

/** The user of the examples in the OpenAPI document. */
export const USER_EXAMPLE: UserView = {
  id: 2,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  role: 'admin',
  organization_id: 1,
  is_active: true,
  deactivated_on: null,
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'owner@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
};

// The names these schemas have in the OpenAPI document, with an example each.
named('User', UserSchema, USER_EXAMPLE);
named('CurrentUser', MeSchema);
named('PasswordToken', PasswordTokenSchema, { set_password_token: 'spt_4dQx…', set_password_token_expires_on: '2026-11-23T10:15:30.123Z' });
named('CreatedUser', CreatedUserSchema, {
  user: USER_EXAMPLE,
  set_password_token: 'spt_4dQx…',
  set_password_token_expires_on: '2026-11-23T10:15:30.123Z',
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateUserBody, { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', role: 'member' });
withExamples(UpdateUserBody, { first_name: 'Grace', last_name: 'Hopper', role: 'admin' });

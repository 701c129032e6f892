import { Type } from '@sinclair/typebox';
import { Id, NullableTimestamp, Timestamp, named, withExamples } from '../../http/schemas.js';
import { USER_EXAMPLE, UserSchema } from '../users/users.schemas.js';

export const LoginBody = withExamples(
  Type.Object({
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    session: Type.Optional(
      Type.Union([Type.Literal('token'), Type.Literal('cookie')], {
        default: 'token',
        description:
          'token: the answer carries a bearer token. cookie (a browser on this origin): the answer sets the HttpOnly ap_session cookie ' +
          'and the readable ap_csrf cookie, and leaves the token out; state-changing requests made with the cookie repeat ap_csrf in X-CSRF-Token',
      }),
    ),
  }),
  { email: 'ada@example.com', password: 'correct horse battery staple', session: 'cookie' },
  { email: 'ada@example.com', password: 'correct horse battery staple' },
);

export const SessionSchema = Type.Object({
  session: Type.Literal('token', { description: 'The kind of session asked for' }),
  token: Type.String({ description: 'Send as Authorization: Bearer <token>' }),
  token_type: Type.Literal('Bearer'),
  expires_on: Timestamp('When the token stops working'),
  user: UserSchema,
});

export const CookieSessionSchema = Type.Object(
  {
    session: Type.Literal('cookie', { description: 'The kind of session asked for' }),
    expires_on: Timestamp('When the session, and its cookies, stop working'),
    user: UserSchema,
  },
  { description: 'The session token is in the ap_session cookie (HttpOnly), never in the body; the CSRF value is in the ap_csrf cookie' },
);

export const ApiKeySchema = Type.Object({
  id: Id('API key identifier'),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart' }),
  created_on: Timestamp('When the key was created'),
  last_used_on: NullableTimestamp('When the key was last used, to the minute'),
  expires_on: NullableTimestamp('When the key stops working; null for never'),
  revoked_on: NullableTimestamp('When the key was revoked; null while it works'),
});

export const NewApiKeySchema = Type.Composite([
  ApiKeySchema,
  Type.Object({ key: Type.String({ description: 'The secret: shown this once, stored only as a hash' }) }),
]);

export const CreateApiKeyBody = withExamples(
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200, description: 'What the key is for' }),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'Omit for a key that does not expire' })),
  }),
  { name: 'Nightly evaluation job', expires_in_days: 90 },
);

// The names these schemas have in the OpenAPI document, with an example each.
named('Session', SessionSchema, {
  session: 'token',
  token: 'aps_9f2c…',
  token_type: 'Bearer',
  expires_on: '2026-11-21T10:15:30.123Z',
  user: USER_EXAMPLE,
});
named('CookieSession', CookieSessionSchema, {
  session: 'cookie',
  expires_on: '2026-11-21T10:15:30.123Z',
  user: USER_EXAMPLE,
});
named('ApiKey', ApiKeySchema, {
  id: 3,
  name: 'CI',
  prefix: 'ak_7Hq2',
  created_on: '2026-11-20T10:15:30.123Z',
  last_used_on: null,
  expires_on: null,
  revoked_on: null,
});
named('NewApiKey', NewApiKeySchema, {
  id: 3,
  name: 'CI',
  prefix: 'ak_7Hq2',
  key: 'ak_7Hq2…',
  created_on: '2026-11-20T10:15:30.123Z',
  last_used_on: null,
  expires_on: null,
  revoked_on: null,
});

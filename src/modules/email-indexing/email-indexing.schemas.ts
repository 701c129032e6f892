import { Type, type Static } from '@sinclair/typebox';
import { Id, NullableTimestamp, Timestamp, named, withExamples } from '../../http/schemas.js';
import { SYNC_STATUSES } from '../connectors/connectors.schemas.js';
import { GRAPH_ERROR_CODES, ScheduleMinutes } from '../sources/index.js';
import { RETURN_PATH_PATTERN } from './return-path.js';

const Provider = Type.Union([Type.Literal('microsoft'), Type.Literal('google')], { description: 'microsoft (Microsoft 365 through Graph) or google (Gmail)' });
// Graph folder ids are base64-like; well-known names are words; Gmail label ids are words with _ or -.
const FolderId = Type.String({ minLength: 1, maxLength: 500, pattern: '^[A-Za-z0-9_=+/.-]+$' });

export const AuthorizeBody = Type.Object({
  provider: Provider,
  corpus_id: Id('The corpus the messages go to; the caller needs write permission on it'),
  folders: Type.Optional(
    Type.Array(FolderId, {
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description: 'Microsoft: mail folder ids or well-known names (inbox, sentitems, archive…); Google: label ids (INBOX, SENT, Label_12…). Default: the inbox',
    }),
  ),
  schedule_minutes: Type.Optional({ ...ScheduleMinutes, description: `${ScheduleMinutes.description}. Absent: a new mailbox has none, one authorized again keeps its own` }),
  mailbox: Type.Optional(
    Type.String({
      format: 'email',
      maxLength: 254,
      description:
        'The address of the mailbox expected to sign in at the provider (compared without case). Default: the e-mail of the caller; another address only for the organization’s owners and admins (403 otherwise). The callback links only that mailbox; another account signing in is a 400 that writes nothing',
    }),
  ),
  return_to: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: RETURN_PATH_PATTERN,
      description:
        'A path of this server’s own pages (e.g. /organization/sources; never another origin) to send the browser back to once the callback ends: 303 to it with ?linked_mailbox=<id>, or with ?link_error=<the reason> when the link failed. Without it the callback answers JSON',
    }),
  ),
});
export type AuthorizeInput = Static<typeof AuthorizeBody>;

export const AuthorizationSchema = named(
  'EmailAuthorization',
  Type.Object({
    authorization_url: Type.String({ description: 'Where to send the mailbox’s owner: the provider’s consent page (PKCE S256, signed state)' }),
    redirect_uri: Type.String({ description: 'The callback the provider returns to; register it with the provider’s application' }),
    expires_on: Timestamp('The state’s end: a callback after it is refused'),
    mailbox: Type.String({ description: 'The mailbox that must sign in at the provider (lower-cased): the one given, or the caller’s e-mail' }),
  }),
  {
    authorization_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=…&response_type=code&code_challenge_method=S256&state=…',
    redirect_uri: 'https://agents.example.com/api/email-indexing/callback/',
    expires_on: '2026-11-20T10:25:30.123Z',
    mailbox: 'alice@contoso.example',
  },
);

export type AuthorizationView = Static<typeof AuthorizationSchema>;

export const CallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 500, description: 'The state the authorization URL carried' })),
    code: Type.Optional(Type.String({ maxLength: 4000, description: 'The authorization code' })),
    error: Type.Optional(Type.String({ maxLength: 200, description: 'The provider’s refusal, e.g. access_denied' })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  // Providers add their own parameters (session_state, scope, iss…).
  { additionalProperties: true },
);
export type CallbackInput = Static<typeof CallbackQuery>;

export const MailboxSchema = named(
  'Mailbox',
  Type.Object({
    id: Id('Mailbox identifier'),
    provider: Provider,
    address: Type.String({ description: 'The mailbox’s e-mail address, as the provider names it' }),
    corpus_id: Id('The corpus its messages go to'),
    folders: Type.Array(Type.String(), { description: 'Folders (Microsoft) or labels (Google) indexed' }),
    schedule_minutes: ScheduleMinutes,
    next_sync_on: NullableTimestamp('When the next scheduled sync is due; null without a schedule, or while a sync is queued or runs'),
    authorization_status: Type.Union([Type.Literal('active'), Type.Literal('reauthorization_required')], {
      description: 'reauthorization_required once the provider refused the grant (revoked, expired): authorize again to go on',
    }),
    last_sync: Type.Object({
      status: Type.Union(SYNC_STATUSES.map((status) => Type.Literal(status))),
      started_on: NullableTimestamp('When the last (or current) sync started'),
      finished_on: NullableTimestamp('When it ended; null while it runs'),
      duration_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
      added: Type.Integer({ minimum: 0, description: 'Documents added: messages and attachments' }),
      removed: Type.Integer({ minimum: 0, description: 'Documents removed: messages deleted or moved out of the folders or labels' }),
      failed: Type.Integer({ minimum: 0, description: 'Attachments too large or of a type that cannot be read' }),
      error_code: Type.Union([...GRAPH_ERROR_CODES.map((code) => Type.Literal(code)), Type.Null()], {
        description: 'auth (grant refused: authorize again), forbidden, not_found (folder or label), throttled, upstream, unreachable, bad_response; null when it did not fail',
      }),
      error: Type.Union([Type.String(), Type.Null()]),
    }),
    created_on: Timestamp('When the mailbox was first linked'),
    created_by: Type.String({ description: 'E-mail of who linked it' }),
    modified_on: Timestamp('When it was last authorized or changed'),
  }),
);
export type MailboxView = Static<typeof MailboxSchema>;

export const MailboxParams = Type.Object({ mailbox_id: Id('Mailbox identifier') });

export const UpdateMailboxBody = Type.Object({ schedule_minutes: Type.Optional(ScheduleMinutes) }, { additionalProperties: false });
export type UpdateMailboxInput = Static<typeof UpdateMailboxBody>;

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(AuthorizeBody, { provider: 'microsoft', corpus_id: 5, folders: ['inbox', 'archive'], schedule_minutes: 60, mailbox: 'support@example.com', return_to: '/organization/sources' });
withExamples(UpdateMailboxBody, { schedule_minutes: 30 });

import { Type, type Static } from '@sinclair/typebox';
import { Id, NullableTimestamp, PageQuery, Timestamp, named } from '../../http/schemas.js';

export const NotificationSchema = Type.Object({
  id: Id('Notification identifier'),
  kind: Type.String({ description: 'team_added, team_role_changed, project_added, document_failed, evaluation_finished' }),
  title: Type.String(),
  body: Type.String(),
  link: Type.Union([Type.String(), Type.Null()], { description: 'API path of what the notification is about' }),
  is_read: Type.Boolean(),
  created_on: Timestamp('When the event happened'),
  read_on: NullableTimestamp('When the user marked it read'),
});
export type NotificationView = Static<typeof NotificationSchema>;

export const unreadFilter = {
  unread: Type.Optional(Type.Boolean({ description: 'true: only unread notifications' })),
};

export const listNotificationsQuery = (pageSizeMax: number) => PageQuery(pageSizeMax, unreadFilter);

// The name this schema has in the OpenAPI document, with an example.
named('Notification', NotificationSchema, {
  id: 21,
  kind: 'team_added',
  title: 'You were added to Support',
  body: 'ada@example.com added you to the team Support as editor.',
  link: '/api/v2/teams/3',
  is_read: false,
  created_on: '2026-11-20T10:15:30.123Z',
  read_on: null,
});

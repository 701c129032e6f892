import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, IdParams, Page, named, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { NotificationSchema, listNotificationsQuery } from './notifications.schemas.js';

const tags = ['notifications'];

export const notificationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notifications = app.services.notifications;

  app.get(
    '/api/v2/notifications',
    {
      schema: {
        operationId: 'listNotifications',
        tags,
        summary: "The caller's notifications (unread first)",
        description: 'Unread first, then newest first; ?unread=true leaves out those already read.',
        querystring: listNotificationsQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Envelope(Page(NotificationSchema)) }),
      },
    },
    async (request) => {
      const { unread, ...page } = request.query;
      return ok('Notifications', asPage(await notifications.list(request.actor, unread === true, windowOf(page)), page));
    },
  );

  app.put(
    '/api/v2/notifications/read-all',
    {
      schema: {
        operationId: 'markAllNotificationsRead',
        tags,
        summary: 'Mark all notifications read',
        response: responses({ 200: Envelope(named('NotificationsMarkedRead', Type.Object({ updated: Type.Integer({ description: 'Notifications that were unread' }) }))) }),
      },
    },
    async (request) => ok('All notifications read', { updated: await notifications.markAllRead(request.actor) }),
  );

  app.put(
    '/api/v2/notifications/:notification_id/read',
    {
      schema: {
        operationId: 'markNotificationRead',
        tags,
        summary: 'Mark a notification read',
        description: "Marking it again keeps the first read_on. Another user's notification is a 404.",
        params: IdParams('notification_id'),
        response: responses({ 200: Envelope(NotificationSchema) }, [404]),
      },
    },
    async (request) => ok('Notification read', await notifications.markRead(request.actor, request.params.notification_id)),
  );
};

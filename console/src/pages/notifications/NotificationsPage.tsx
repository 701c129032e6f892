// The signed-in user's notifications (/notifications): unread first, then newest; each marked read
// on its own or all at once; each leads to what it is about where the console has a page for it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { consolePathOf, NOTIFICATIONS_KEY, notificationsQuery, unreadCountQuery, type Notification } from './notifications-api';
import './notifications.css';

const PAGE_SIZE = 20;

function useNotificationChange<T>(change: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }) });
}

export default function NotificationsPage() {
  const [page, setPage] = useState(1);
  const notifications = useQuery(notificationsQuery(page, PAGE_SIZE));
  const unread = useQuery(unreadCountQuery());
  const readAll = useNotificationChange(() => unwrap(api.PUT('/api/v2/notifications/read-all')));
  const unreadCount = unread.data ?? 0;
  return (
    <>
      <PageHeader title="Notifications" description={unreadCount === 0 ? 'Nothing unread.' : `${unreadCount} unread.`}>
        <Button onPress={() => readAll.mutate(undefined)} isDisabled={unreadCount === 0} isPending={readAll.isPending}>
          Mark all read
        </Button>
      </PageHeader>
      <ErrorNote error={readAll.error} title="Not marked read:" />
      <ErrorNote error={notifications.error} title="The notifications could not be loaded." />
      {notifications.isPending && <Loading label="Loading your notifications…" />}
      {notifications.data !== undefined &&
        (notifications.data.items.length === 0 ? (
          <Empty>No notifications yet. You are told here when someone adds you to a team or a project, or a document of yours fails.</Empty>
        ) : (
          <>
            <ul className="list notification-list" aria-label="Notifications">
              {notifications.data.items.map((notification) => (
                <NotificationItem key={notification.id} notification={notification} />
              ))}
            </ul>
            <Pager page={page} pageSize={PAGE_SIZE} total={notifications.data.total} nouns={['notification', 'notifications']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

function NotificationItem({ notification }: { notification: Notification }) {
  const markRead = useNotificationChange(() =>
    unwrap(api.PUT('/api/v2/notifications/{notification_id}/read', { params: { path: { notification_id: notification.id } } })),
  );
  const path = consolePathOf(notification.link);
  const titleId = `notification-${notification.id}-title`;
  return (
    <li className={notification.is_read ? 'notification' : 'notification notification-unread'} aria-labelledby={titleId}>
      <div className="notification-text">
        <h2 id={titleId} className="notification-title">
          {!notification.is_read && <span className="badge badge-warning">Unread</span>} {path === null ? notification.title : <Link to={path}>{notification.title}</Link>}
        </h2>
        <p>{notification.body}</p>
        <p className="muted notification-when">
          {new Date(notification.created_on).toLocaleString()}
          {notification.read_on !== null && ` · read ${new Date(notification.read_on).toLocaleString()}`}
        </p>
        <ErrorNote error={markRead.error} title="Not marked read:" />
      </div>
      {!notification.is_read && (
        <Button className="button-compact" aria-label={`Mark read: ${notification.title}`} isPending={markRead.isPending} onPress={() => markRead.mutate(undefined)}>
          Mark read
        </Button>
      )}
    </li>
  );
}

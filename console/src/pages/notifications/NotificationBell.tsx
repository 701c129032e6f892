// The header's bell: the signed-in user's unread notifications counted (asked again every minute and
// when the window regains focus), a link to the notifications page. In the first load, so it imports
// nothing heavy: the router's link and the query already there.
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { unreadCountQuery } from './notifications-api';
import './notification-bell.css';

export function NotificationBell() {
  const unread = useQuery(unreadCountQuery());
  const count = unread.data ?? 0;
  const label = count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`;
  return (
    <NavLink to="/notifications" className="notification-bell" aria-label={label} title={label}>
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {count > 0 && (
        <span className="notification-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </NavLink>
  );
}

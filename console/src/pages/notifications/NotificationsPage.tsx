// The signed-in user's notifications (/notifications), read and marked read.
import { PageHeader } from '../../ui/PageHeader';

export default function NotificationsPage() {
  return <PageHeader title="Notifications" />;
}

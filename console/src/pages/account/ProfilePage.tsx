import { PageHeader } from '../../ui/PageHeader';

export default function ProfilePage() {
  return <PageHeader title="ProfilePage" />;
}

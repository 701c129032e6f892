import { PageHeader } from '../../ui/PageHeader';

export default function AgentsPage() {
  return <PageHeader title="AgentsPage" />;
}

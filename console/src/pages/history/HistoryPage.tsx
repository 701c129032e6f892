import { PageHeader } from '../../ui/PageHeader';

export default function HistoryPage() {
  return <PageHeader title="HistoryPage" />;
}

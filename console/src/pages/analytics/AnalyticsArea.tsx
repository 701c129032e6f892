// Analytics (/analytics/*): cost, tokens, queries, documents, votes and indexing over time.
import { PageHeader } from '../../ui/PageHeader';

export default function AnalyticsArea() {
  return <PageHeader title="Analytics" />;
}

// Sources (/organization/sources/*): document libraries and mailboxes linked, synced, watched.
import { PageHeader } from '../../ui/PageHeader';

export default function SourcesSection() {
  return <PageHeader title="Sources" />;
}

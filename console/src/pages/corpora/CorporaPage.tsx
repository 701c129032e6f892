import { PageHeader } from '../../ui/PageHeader';

export default function CorporaPage() {
  return <PageHeader title="CorporaPage" />;
}

import { PageHeader } from '../../ui/PageHeader';

export default function CorpusPage() {
  return <PageHeader title="CorpusPage" />;
}

import { PageHeader } from '../../ui/PageHeader';

export default function AgentEditorPage() {
  return <PageHeader title="AgentEditorPage" />;
}

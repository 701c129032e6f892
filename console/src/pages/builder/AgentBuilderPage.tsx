// The agent builder (/agents/builder): an agent described in words, the draft reviewed, then created.
import { PageHeader } from '../../ui/PageHeader';

export default function AgentBuilderPage() {
  return <PageHeader title="Describe an agent" />;
}

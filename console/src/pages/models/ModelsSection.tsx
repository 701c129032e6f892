// Models (/organization/models/*): LLM configurations and the organization's model deployment.
import { PageHeader } from '../../ui/PageHeader';

export default function ModelsSection() {
  return <PageHeader title="Models" />;
}

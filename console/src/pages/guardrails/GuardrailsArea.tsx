// Guardrails (/guardrails/*): each kind made and edited beside a live test box.
import { PageHeader } from '../../ui/PageHeader';

export default function GuardrailsArea() {
  return <PageHeader title="Guardrails" />;
}

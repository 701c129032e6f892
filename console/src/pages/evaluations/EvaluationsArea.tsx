// Evaluations (/evaluations/*): datasets, metrics, runs and their comparison.
import { PageHeader } from '../../ui/PageHeader';

export default function EvaluationsArea() {
  return <PageHeader title="Evaluations" />;
}

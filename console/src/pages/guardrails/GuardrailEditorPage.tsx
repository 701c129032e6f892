// One guardrail (/guardrails/new, /guardrails/:id): its settings on the left, the live test on the
// right (below, on a phone). Owners and admins change and delete it; anyone else reads and tests it.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { guardrailQuery, type Guardrail } from './guardrail-api';
import { GuardrailForm } from './GuardrailForm';

export default function GuardrailEditorPage() {
  const { guardrailId } = useParams();
  const id = guardrailId === undefined ? null : Number(guardrailId);
  if (id === null) return <Editor guardrail={null} />;
  if (!Number.isInteger(id) || id <= 0) return <ErrorNote error={new Error('No guardrail has this address.')} />;
  return <SavedGuardrail guardrailId={id} />;
}

function SavedGuardrail({ guardrailId }: { guardrailId: number }) {
  const guardrail = useQuery(guardrailQuery(guardrailId));
  if (guardrail.isPending) return <Loading label="Loading the guardrail…" />;
  if (guardrail.error !== null) {
    return (
      <>
        <PageHeader title="Guardrail" />
        <ErrorNote error={guardrail.error} title="The guardrail could not be loaded." />
        <Link to="/guardrails">All guardrails</Link>
      </>
    );
  }
  return <Editor guardrail={guardrail.data} />;
}

function Editor({ guardrail }: { guardrail: Guardrail | null }) {
  const user = useUser();
  const mayManage = atLeast(user.role, 'admin');
  return (
    <>
      <p className="breadcrumb">
        <Link to="/guardrails">Guardrails</Link>
      </p>
      <PageHeader title={guardrail === null ? 'New guardrail' : guardrail.name} />
      <GuardrailForm guardrail={guardrail} mayManage={mayManage} />
    </>
  );
}

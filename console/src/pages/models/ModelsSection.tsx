// Models (/organization/models): the organization's LLM configurations (added, tested, changed,
// deleted by owners and admins; keys typed once and never shown again) and its model deployment.
import { useQuery } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { NotFoundPage } from '../NotFoundPage';
import { ConfigurationDialog } from './ConfigurationDialog';
import { ConfigurationTable } from './ConfigurationTable';
import { DeploymentForm } from './DeploymentForm';
import { llmConfigurationsQuery } from './model-api';
import './models.css';

export default function ModelsSection() {
  return (
    <Routes>
      <Route index element={<ModelsPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function ModelsPage() {
  const user = useUser();
  const organizationId = user.organization_id;
  const mayManage = atLeast(user.role, 'admin');
  const configurations = useQuery(llmConfigurationsQuery(organizationId));
  return (
    <>
      <PageHeader title="Models" description="The language models your agents answer with, and which one serves each purpose.">
        {mayManage && <ConfigurationDialog organizationId={organizationId} configuration={null} />}
      </PageHeader>
      {!mayManage && <p className="note note-info">Only owners and admins see the models’ settings, add, test and change them.</p>}
      <section aria-labelledby="configurations-heading" className="models-section">
        <h2 id="configurations-heading">LLM configurations</h2>
        <ErrorNote error={configurations.error} title="The LLM configurations could not be loaded." />
        {configurations.isPending && <Loading label="Loading the LLM configurations…" />}
        {configurations.data !== undefined &&
          (configurations.data.length === 0 ? (
            <Empty>No LLM configuration yet: agents answer offline, quoting their corpora.{mayManage && ' Add one to answer with a model.'}</Empty>
          ) : (
            <ConfigurationTable organizationId={organizationId} configurations={configurations.data} mayManage={mayManage} />
          ))}
      </section>
      <section aria-labelledby="deployment-heading" className="card models-section">
        <h2 id="deployment-heading">Model deployment</h2>
        <p className="muted">Which configuration serves each purpose.</p>
        <DeploymentForm organizationId={organizationId} configurations={configurations.data ?? []} mayManage={mayManage} />
      </section>
    </>
  );
}

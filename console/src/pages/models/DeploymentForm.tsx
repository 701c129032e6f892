// The organization's model deployment: which LLM configuration serves each purpose (chat, embedding,
// image, judge), or none. Owners and admins change it; everyone sees it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote, Loading, SuccessNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { SelectField } from '../../ui/SelectField';
import { deploymentQuery, PURPOSES, type LlmConfiguration, type ModelDeployment, type Purpose } from './model-api';

type Choices = Record<Purpose, number | null>;

const NONE = 'none';

const choicesOf = (deployment: ModelDeployment): Choices => ({ chat: deployment.chat, embedding: deployment.embedding, image: deployment.image, judge: deployment.judge });

export function DeploymentForm({ organizationId, configurations, mayManage }: { organizationId: number; configurations: LlmConfiguration[]; mayManage: boolean }) {
  const deployment = useQuery(deploymentQuery(organizationId));
  if (deployment.isPending) return <Loading label="Loading the model deployment…" />;
  if (deployment.error !== null) return <ErrorNote error={deployment.error} title="The model deployment could not be loaded." />;
  return <DeploymentChoices organizationId={organizationId} deployment={deployment.data} configurations={configurations} mayManage={mayManage} />;
}

interface DeploymentChoicesProps {
  organizationId: number;
  deployment: ModelDeployment;
  configurations: LlmConfiguration[];
  mayManage: boolean;
}

function DeploymentChoices({ organizationId, deployment, configurations, mayManage }: DeploymentChoicesProps) {
  const queryClient = useQueryClient();
  const [choices, setChoices] = useState<Choices>(() => choicesOf(deployment));
  // What is stored changed (saved here, or a configuration it named deleted): the choices follow it.
  const [basis, setBasis] = useState(deployment);
  if (basis !== deployment) {
    setBasis(deployment);
    setChoices(choicesOf(deployment));
  }
  const save = useMutation({
    mutationFn: async (sent: Choices) =>
      (await unwrap(api.PUT('/api/v2/organizations/{org_id}/model-deployment', { params: { path: { org_id: organizationId } }, body: sent }))).data,
    onSuccess: (saved) => queryClient.setQueryData(deploymentQuery(organizationId).queryKey, saved),
  });
  const options = [{ id: NONE, label: 'None' }, ...configurations.map((configuration) => ({ id: String(configuration.id), label: configuration.name, detail: configuration.model }))];
  const changed = PURPOSES.some(({ id }) => choices[id] !== deployment[id]);
  return (
    <Form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (changed && !save.isPending) save.mutate(choices);
      }}
    >
      <div className="form-row">
        {PURPOSES.map((purpose) => (
          <SelectField
            key={purpose.id}
            label={purpose.label}
            description={purpose.detail}
            options={options}
            value={choices[purpose.id] === null ? NONE : String(choices[purpose.id])}
            onChange={(value) => {
              setChoices((current) => ({ ...current, [purpose.id]: value === NONE ? null : Number(value) }));
              save.reset();
            }}
            isDisabled={!mayManage}
          />
        ))}
      </div>
      {deployment.modified_by !== null && deployment.modified_on !== null && (
        <p className="muted model-small">
          Last changed by {deployment.modified_by} on {new Date(deployment.modified_on).toLocaleString()}.
        </p>
      )}
      <ErrorNote error={save.error} title="The model deployment could not be saved." />
      {save.isSuccess && <SuccessNote>Model deployment saved.</SuccessNote>}
      {mayManage ? (
        <div className="actions">
          <Button type="submit" variant="primary" isDisabled={!changed || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save deployment'}
          </Button>
        </div>
      ) : (
        <p className="muted model-small">Only owners and admins change the model deployment.</p>
      )}
    </Form>
  );
}

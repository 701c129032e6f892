// The organization's LLM configurations: provider, model, prices, whether a key is set (never the key),
// which is the default; owners and admins test, change and delete each.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { DeleteButton } from '../../ui/DeleteButton';
import { ConfigurationDialog } from './ConfigurationDialog';
import { llmConfigurationsQuery, PROVIDER_NAMES, type LlmConfiguration } from './model-api';
import { TestConfigurationButton } from './TestConfigurationButton';
import { DataTable } from '../../ui/DataTable';

const price = (value: number | null | undefined) => (value === null || value === undefined ? 'unknown' : `$${value}`);

function pricesOf(configuration: LlmConfiguration): string {
  const { input_price_per_million: input, output_price_per_million: output } = configuration;
  if ((input ?? null) === null && (output ?? null) === null) return 'Unknown (no cost counted)';
  return `in ${price(input)}, out ${price(output)}`;
}

export function ConfigurationTable({ organizationId, configurations, mayManage }: { organizationId: number; configurations: LlmConfiguration[]; mayManage: boolean }) {
  return (
    <DataTable columns={['Name', 'Provider and model', ...(mayManage ? ['Price per million tokens', 'Key'] : [])]} actions={mayManage} className="configuration-table">
      {configurations.map((configuration) => (
        <tr key={configuration.id}>
          <th scope="row" data-label="Name">
            {configuration.name} {configuration.is_default && <span className="badge">Default</span>}
          </th>
          <td data-label="Provider and model">
            {PROVIDER_NAMES[configuration.provider].split(' (')[0]}
            <span className="muted model-detail">{configuration.model}</span>
            {configuration.base_url !== null && configuration.base_url !== undefined && <span className="muted model-detail">{configuration.base_url}</span>}
          </td>
          {mayManage && (
            <td data-label="Price per million tokens">
              {pricesOf(configuration)}
            </td>
          )}
          {mayManage && (
            <td data-label="Key">
              {configuration.api_key_hint === null || configuration.api_key_hint === undefined ? (
                <span className="muted">No key</span>
              ) : (
                <>
                  Key set <span className="muted model-small">({configuration.api_key_hint})</span>
                </>
              )}
            </td>
          )}
          {mayManage && (
            <td data-label="Actions">
              <div className="configuration-actions">
                <TestConfigurationButton organizationId={organizationId} configuration={configuration} />
                <ConfigurationDialog organizationId={organizationId} configuration={configuration} />
                <DeleteConfigurationButton organizationId={organizationId} configuration={configuration} />
              </div>
            </td>
          )}
        </tr>
      ))}
    </DataTable>
  );
}

function DeleteConfigurationButton({ organizationId, configuration }: { organizationId: number; configuration: LlmConfiguration }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}', { params: { path: { org_id: organizationId, llm_configuration_id: configuration.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: llmConfigurationsQuery(organizationId).queryKey });
      await queryClient.invalidateQueries({ queryKey: ['model-deployment', organizationId] });
    },
  });
  return (
    <DeleteButton
      label="Delete"
      accessibleName={`Delete ${configuration.name}`}
      compact
      title={`Delete ${configuration.name}?`}
      confirmLabel="Delete configuration"
      isPending={remove.isPending}
      error={remove.error}
      errorTitle="The configuration could not be deleted."
      onDelete={() => remove.mutate()}
    >
      <p>Its key is deleted with it, and the model deployment stops naming it. Agents that answer with it keep it from being deleted. This cannot be undone.</p>
    </DeleteButton>
  );
}

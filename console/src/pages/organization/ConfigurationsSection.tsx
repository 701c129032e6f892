// The organization's configurations (…/configurations): named JSON objects of settings, of which one
// at most is the active one (…/activate switches in one transaction). Everyone in the organization
// reads them, so no secrets belong in them. Owners and admins create, edit and activate them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { configurationsQuery, organizationKeys, type Configuration } from './organization-api';
import { DataTable } from '../../ui/DataTable';

type Settings = Record<string, unknown>;

/** The typed text as a settings object, or the reason it is not one. */
function parseSettings(text: string): { settings: Settings } | { problem: string } {
  if (text.trim() === '') return { settings: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'Settings are a JSON object: { "name": value, … }.' };
    return { settings: value as Settings };
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
}

function useConfigurationChange<T>(organizationId: number, change: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.configurations(organizationId) }) });
}

export function ConfigurationsSection({ organizationId, mayChange }: { organizationId: number; mayChange: boolean }) {
  const configurations = useQuery(configurationsQuery(organizationId));
  const active = configurations.data?.items.find((configuration) => configuration.is_active);
  return (
    <section aria-labelledby="configurations-heading">
      <h2 id="configurations-heading">Configurations</h2>
      <p className="muted">
        Named sets of settings for the organization (JSON); one at most is active. Everyone in the organization can read them: keep no secrets here.{' '}
        {configurations.data !== undefined && (active === undefined ? 'None is active.' : <strong>Active: {active.name}.</strong>)}
      </p>
      {mayChange && <ConfigurationDialog organizationId={organizationId} />}
      <ErrorNote error={configurations.error} title="The configurations could not be loaded." />
      {configurations.isPending && <Loading label="Loading the configurations…" />}
      {configurations.data !== undefined &&
        (configurations.data.items.length === 0 ? (
          <Empty>No configurations yet.</Empty>
        ) : (
          <DataTable columns={['Name', 'Settings', 'State']} actions className="configurations-table">
            {configurations.data.items.map((configuration) => (
              <ConfigurationRow key={configuration.id} organizationId={organizationId} configuration={configuration} mayChange={mayChange} />
            ))}
          </DataTable>
        ))}
    </section>
  );
}

function ConfigurationRow({ organizationId, configuration, mayChange }: { organizationId: number; configuration: Configuration; mayChange: boolean }) {
  const activate = useConfigurationChange(organizationId, () =>
    unwrap(
      api.POST('/api/v2/organizations/{org_id}/configurations/{configuration_id}/activate', {
        params: { path: { org_id: organizationId, configuration_id: configuration.id } },
      }),
    ),
  );
  return (
    <tr>
      <th scope="row">{configuration.name}</th>
      <td>
        <pre>{JSON.stringify(configuration.settings, null, 2)}</pre>
      </td>
      <td>
        {configuration.is_active ? (
          <span className="badge badge-success">Active since {new Date(configuration.activated_on ?? configuration.modified_on).toLocaleString()}</span>
        ) : (
          <span className="badge">Inactive</span>
        )}
      </td>
      <td>
        {mayChange && (
          <div className="row-actions">
            {!configuration.is_active && (
              <Button className="button-compact" aria-label={`Activate ${configuration.name}`} isPending={activate.isPending} onPress={() => activate.mutate(undefined)}>
                Activate
              </Button>
            )}
            <ConfigurationDialog organizationId={organizationId} configuration={configuration} />
          </div>
        )}
        <ErrorNote error={activate.error} title="Not activated:" />
      </td>
    </tr>
  );
}

/** Creating a configuration, or (given one) changing its name and settings. */
function ConfigurationDialog({ organizationId, configuration }: { organizationId: number; configuration?: Configuration }) {
  const initialText = configuration === undefined ? '{\n  \n}' : JSON.stringify(configuration.settings, null, 2);
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState(configuration?.name ?? '');
  const [text, setText] = useState(initialText);
  const [activateNow, setActivateNow] = useState(false);
  const parsed = parseSettings(text);
  const save = useConfigurationChange(organizationId, (settings: Settings) =>
    configuration === undefined
      ? unwrap(api.POST('/api/v2/organizations/{org_id}/configurations', { params: { path: { org_id: organizationId } }, body: { name: name.trim(), settings, activate: activateNow } }))
      : unwrap(
          api.PUT('/api/v2/organizations/{org_id}/configurations/{configuration_id}', {
            params: { path: { org_id: organizationId, configuration_id: configuration.id } },
            body: { name: name.trim(), settings },
          }),
        ),
  );
  const isNew = configuration === undefined;
  return (
    <FormDialog
      title={isNew ? 'New configuration' : `Edit ${configuration.name}`}
      trigger={
        <Button variant={isNew ? 'primary' : 'secondary'} className={isNew ? undefined : 'button-compact'} aria-label={isNew ? undefined : `Edit ${configuration.name}`}>
          {isNew ? 'New configuration' : 'Edit'}
        </Button>
      }
      isOpen={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        save.reset();
        if (open) {
          setName(configuration?.name ?? '');
          setText(initialText);
          setActivateNow(false);
        }
      }}
      submitLabel={isNew ? 'Create configuration' : 'Save'}
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit={name.trim() !== '' && 'settings' in parsed}
      error={save.error}
      errorTitle="Not saved:"
      onSubmit={() => 'settings' in parsed && save.mutate(parsed.settings, { onSuccess: () => setOpen(false) })}
    >
      <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus description="Unique among the organization’s configurations." />
      <TextField
        label="Settings (JSON)"
        value={text}
        onChange={setText}
        multiline
        rows={8}
        className="mono"
        isInvalid={'problem' in parsed}
        errorMessage={'problem' in parsed ? parsed.problem : undefined}
        description="A JSON object, such as { &quot;default_language&quot;: &quot;en&quot; }."
      />
      {isNew && (
        <Checkbox className="react-aria-Checkbox" isSelected={activateNow} onChange={setActivateNow}>
          <span className="box" aria-hidden="true">
            {activateNow ? '✓' : ''}
          </span>
          Make it the active configuration
        </Checkbox>
      )}
    </FormDialog>
  );
}

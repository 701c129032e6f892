// The signed-in user's own API keys (each key acts as its owner, with their role): created with a
// name and an optional lifetime, the secret shown once; listed by name and prefix; revoked after a
// question. Creating keys is behind the developer-portal feature flag.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { DeleteButton } from '../../ui/DeleteButton';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { PageHeader } from '../../ui/PageHeader';
import { featureFlagsQuery } from '../organization/organization-api';
import { DisabledWithReason } from './DisabledWithReason';
import { OnceSecretDialog } from './OnceSecretDialog';
import { apiKeysQuery, peopleKeys, when, type ApiKey } from './people-api';
import { DataTable } from '../../ui/DataTable';

const FLAG_OFF_REASON = 'The developer-portal feature is off for your organization; an owner or admin turns it on in Organization › Settings.';

export function ApiKeysPage() {
  const keys = useQuery(apiKeysQuery());
  const flags = useQuery(featureFlagsQuery());
  const portalOn = flags.data?.find((flag) => flag.flag === 'developer-portal')?.enabled ?? true;
  return (
    <>
      <PageHeader title="API keys" description="Your own keys, for programs that call the API as you (Authorization: Bearer <key>), with your role.">
        {portalOn ? <NewApiKeyDialog /> : <DisabledWithReason label="New API key" reason={FLAG_OFF_REASON} />}
      </PageHeader>
      <ErrorNote error={keys.error} title="The API keys could not be loaded." />
      {keys.isPending && <Loading label="Loading your API keys…" />}
      {keys.data !== undefined &&
        (keys.data.length === 0 ? (
          <Empty>You have no API keys.</Empty>
        ) : (
          <DataTable columns={['Name', 'Starts with', 'Created', 'Last used', 'Expires', 'Status']} actions className="people-table">
            {keys.data.map((key) => (
              <ApiKeyRow key={key.id} apiKey={key} />
            ))}
          </DataTable>
        ))}
    </>
  );
}

function statusOf(key: ApiKey): { label: string; className: string } {
  if (key.revoked_on !== null) return { label: 'Revoked', className: 'badge' };
  if (key.expires_on !== null && new Date(key.expires_on) <= new Date()) return { label: 'Expired', className: 'badge badge-warning' };
  return { label: 'Active', className: 'badge badge-success' };
}

function ApiKeyRow({ apiKey }: { apiKey: ApiKey }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/auth/api-keys/{key_id}', { params: { path: { key_id: apiKey.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.apiKeys }),
  });
  const status = statusOf(apiKey);
  return (
    <tr>
      <th scope="row">{apiKey.name}</th>
      <td data-label="Starts with">
        <code>{apiKey.prefix}…</code>
      </td>
      <td data-label="Created">{when(apiKey.created_on)}</td>
      <td data-label="Last used">{apiKey.last_used_on === null ? 'Never' : when(apiKey.last_used_on)}</td>
      <td data-label="Expires">{apiKey.expires_on === null ? 'Never' : when(apiKey.expires_on)}</td>
      <td data-label="Status">
        <span className={status.className}>{status.label}</span>
      </td>
      <td>
        {status.label === 'Active' && (
          <div className="row-actions">
            <DeleteButton
              label="Revoke"
              accessibleName={`Revoke ${apiKey.name}`}
              title={`Revoke ${apiKey.name}?`}
              confirmLabel="Revoke key"
              compact
              isPending={revoke.isPending}
              error={revoke.error}
              errorTitle="Not revoked:"
              onDelete={() => revoke.mutate()}
            >
              <p>Programs using this key are refused from now on. This cannot be undone; make a new key if one is needed again.</p>
            </DeleteButton>
          </div>
        )}
      </td>
    </tr>
  );
}

function NewApiKeyDialog() {
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const daysValue = days.trim() === '' ? undefined : Number(days);
  const daysValid = daysValue === undefined || (Number.isInteger(daysValue) && daysValue >= 1 && daysValue <= 3650);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v2/auth/api-keys', { body: { name: name.trim(), ...(daysValue === undefined ? {} : { expires_in_days: daysValue }) } })),
    onSuccess: async ({ data }) => {
      setOpen(false);
      setName('');
      setDays('');
      setSecret(data.key);
      await queryClient.invalidateQueries({ queryKey: peopleKeys.apiKeys });
    },
  });
  return (
    <>
      <FormDialog
        title="New API key"
        trigger={<Button variant="primary">New API key</Button>}
        isOpen={isOpen}
        onOpenChange={(open) => {
          setOpen(open);
          if (!open) create.reset();
        }}
        submitLabel="Create key"
        pendingLabel="Creating…"
        isPending={create.isPending}
        canSubmit={name.trim() !== '' && daysValid}
        error={create.error}
        errorTitle="No key made:"
        onSubmit={() => create.mutate()}
      >
        <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus description="What the key is for, to tell it apart later." />
        <TextField
          label="Expires after (days)"
          value={days}
          onChange={setDays}
          inputMode="numeric"
          description="From 1 to 3650; leave empty for a key that does not expire."
          isInvalid={!daysValid}
          errorMessage="A whole number of days from 1 to 3650."
        />
      </FormDialog>
      <OnceSecretDialog
        title="Your new API key"
        label="API key"
        secret={secret}
        explanation="Give it to the program that calls the API as you, in the header Authorization: Bearer <key>."
        onClose={() => setSecret(null)}
      />
    </>
  );
}

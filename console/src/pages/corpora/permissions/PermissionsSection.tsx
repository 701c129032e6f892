// Who may use the corpus, per user (read, write, manage): list, give, change, take away. Only for
// those who manage it; owners and admins of the organization manage every corpus without an entry.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { DeleteButton } from '../../../ui/DeleteButton';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import { SelectField, type SelectOption } from '../../../ui/SelectField';
import { corpusKeys, permissionsQuery, type CorpusPermission, type PermissionEntry } from '../corpus-api';
import { UserPicker } from './UserPicker';

export const PERMISSION_OPTIONS: SelectOption<CorpusPermission>[] = [
  { id: 'read', label: 'Read: see and search' },
  { id: 'write', label: 'Write: also add, tag and delete documents' },
  { id: 'manage', label: 'Manage: also rename, delete and share' },
];

function useGrant(corpusId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, permission }: { userId: number; permission: CorpusPermission }) =>
      unwrap(api.POST('/api/v2/corpora/{corpus_id}/permissions', { params: { path: { corpus_id: corpusId } }, body: { user_id: userId, permission } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: corpusKeys.permissions(corpusId) }),
  });
}

export function PermissionsSection({ corpusId }: { corpusId: number }) {
  const permissions = useQuery(permissionsQuery(corpusId));
  return (
    <section aria-labelledby="access-heading" className="access-section">
      <h2 id="access-heading">Who has access</h2>
      <p className="muted">Owners and admins of the organization manage every corpus. Anyone else sees only the corpora shared with them here.</p>
      <GrantForm corpusId={corpusId} />
      <ErrorNote error={permissions.error} title="Who has access could not be loaded." />
      {permissions.isPending && <Loading />}
      {permissions.data !== undefined &&
        (permissions.data.length === 0 ? (
          <Empty>Shared with no one yet.</Empty>
        ) : (
          <div className="table-wrap">
            <table className="plain access-table">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Permission</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {permissions.data.map((entry) => (
                  <PermissionRow key={entry.user_id} corpusId={corpusId} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}

function GrantForm({ corpusId }: { corpusId: number }) {
  const [userId, setUserId] = useState<number | null>(null);
  const [permission, setPermission] = useState<CorpusPermission>('read');
  // A new picker after each grant, empty for the next person.
  const [pickerKey, setPickerKey] = useState(0);
  const grant = useGrant(corpusId);
  return (
    <Form
      className="grant-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (userId !== null) grant.mutate(
            { userId, permission },
            {
              onSuccess: () => {
                setUserId(null);
                setPickerKey((key) => key + 1);
              },
            },
          );
      }}
    >
      <UserPicker key={pickerKey} selectedId={userId} onSelect={setUserId} />
      <SelectField label="Permission" options={PERMISSION_OPTIONS} value={permission} onChange={setPermission} />
      <Button type="submit" variant="primary" isDisabled={userId === null || grant.isPending}>
        Give access
      </Button>
      <ErrorNote error={grant.error} />
    </Form>
  );
}

function PermissionRow({ corpusId, entry }: { corpusId: number; entry: PermissionEntry }) {
  const queryClient = useQueryClient();
  const grant = useGrant(corpusId);
  const revoke = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/v2/corpora/{corpus_id}/permissions/{user_id}', { params: { path: { corpus_id: corpusId, user_id: entry.user_id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: corpusKeys.permissions(corpusId) }),
  });
  return (
    <tr>
      <th scope="row">{entry.email}</th>
      <td>
        <SelectField
          label={`Permission of ${entry.email}`}
          hideLabel
          options={PERMISSION_OPTIONS}
          value={entry.permission}
          onChange={(permission) => grant.mutate({ userId: entry.user_id, permission })}
          isDisabled={grant.isPending}
        />
        <ErrorNote error={grant.error} />
      </td>
      <td>
        <DeleteButton
          label="Remove"
          accessibleName={`Remove ${entry.email}`}
          compact
          title={`Remove ${entry.email}?`}
          confirmLabel="Remove access"
          isPending={revoke.isPending}
          error={revoke.error}
          onDelete={() => revoke.mutate()}
        >
          <p>They will no longer see this corpus, unless they are an owner or admin of the organization.</p>
        </DeleteButton>
      </td>
    </tr>
  );
}

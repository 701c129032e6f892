// One member in the members table: their role (a choice for those who may change it, else the role
// and why not), their status, and what may be done to them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useUser } from '../../session/session';
import { DeleteButton } from '../../ui/DeleteButton';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { SelectField } from '../../ui/SelectField';
import { linkExplanation, setPasswordLink } from './InviteDialog';
import { grantableRoles, mayInvite, whyNotChangeRole, whyNotManage } from './member-permissions';
import { OnceSecretDialog } from './OnceSecretDialog';
import { fullName, peopleKeys, ROLE_OPTIONS, roleLabel, type OrganizationRole, type User } from './people-api';

export function MemberRow({ member }: { member: User }) {
  const me = useUser();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: peopleKeys.users });
  const changeRole = useMutation({
    mutationFn: (role: OrganizationRole) => unwrap(api.PUT('/api/v2/users/{user_id}', { params: { path: { user_id: member.id } }, body: { role } })),
    onSuccess: refresh,
  });
  const deactivate = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/users/{user_id}', { params: { path: { user_id: member.id } } })),
    onSuccess: refresh,
  });
  const [link, setLink] = useState<string | null>(null);
  const newLink = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v2/users/{user_id}/set-password-token', { params: { path: { user_id: member.id } } })),
    onSuccess: ({ data }) => setLink(setPasswordLink(data.set_password_token)),
  });
  const roleRefusal = whyNotChangeRole(me, member);
  const manageRefusal = whyNotManage(me, member);
  const roles = grantableRoles(me);
  const name = fullName(member);
  return (
    <tr>
      <th scope="row" data-label="Name">
        {name === '' ? <span className="muted">No name yet</span> : name}
        {member.id === me.id && <span className="muted text-small"> (you)</span>}
      </th>
      <td data-label="E-mail">{member.email}</td>
      <td data-label="Role">
        {roleRefusal === null ? (
          <>
            <SelectField
              label={`Role of ${member.email}`}
              hideLabel
              options={ROLE_OPTIONS.filter((option) => roles.includes(option.id) || option.id === member.role)}
              value={changeRole.isPending && changeRole.variables !== undefined ? changeRole.variables : member.role}
              onChange={(role) => role !== member.role && changeRole.mutate(role)}
              isDisabled={changeRole.isPending}
            />
            <ErrorNote error={changeRole.error} title="The role was not changed:" />
          </>
        ) : (
          <>
            {roleLabel(member.role)}
            {/* Those who manage no one are told once, above the table; admins learn why not this one. */}
            {member.is_active && mayInvite(me) && (
              <span className="muted text-small text-block">
                {roleRefusal}
              </span>
            )}
          </>
        )}
      </td>
      <td data-label="Status">{member.is_active ? <span className="badge badge-success">Active</span> : <span className="badge">Deactivated</span>}</td>
      <td>
        {manageRefusal === null && member.id !== me.id && (
          <div className="row-actions">
            <Button variant="quiet" className="button-compact" aria-label={`New password link for ${member.email}`} isPending={newLink.isPending} onPress={() => newLink.mutate()}>
              New password link
            </Button>
            <DeleteButton
              label="Deactivate"
              accessibleName={`Deactivate ${member.email}`}
              title={`Deactivate ${member.email}?`}
              confirmLabel="Deactivate"
              compact
              isPending={deactivate.isPending}
              error={deactivate.error}
              errorTitle="Not deactivated:"
              onDelete={() => deactivate.mutate()}
            >
              <p>They can no longer sign in; their sessions and API keys stop working at once. What they made stays, and they stay listed as deactivated.</p>
            </DeleteButton>
            <ErrorNote error={newLink.error} title="No new link:" />
          </div>
        )}
        <OnceSecretDialog title="New set-password link" label="Set-password link" secret={link} explanation={linkExplanation(member.email, null)} onClose={() => setLink(null)} />
      </td>
    </tr>
  );
}

// Inviting someone (POST /api/v2/users without a password): the server answers a one-time
// set-password token, which becomes the link the invited person opens (/set-password?token=…) to
// choose their password. The server sends no mail: the link is shown once, to be passed on.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useUser } from '../../session/session';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { SelectField } from '../../ui/SelectField';
import { grantableRoles } from './member-permissions';
import { OnceSecretDialog } from './OnceSecretDialog';
import { peopleKeys, ROLE_OPTIONS, type OrganizationRole } from './people-api';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address of the set-password page for a token, on this console's origin. */
export const setPasswordLink = (token: string) => `${window.location.origin}/set-password?token=${encodeURIComponent(token)}`;

export const linkExplanation = (email: string, expiresOn: string | null) =>
  `Send this link to ${email}: it opens a page where they choose their password${expiresOn === null ? '' : `, until ${new Date(expiresOn).toLocaleString()}`}. ` +
  'It works once. If it is lost or expires, make a new one from the member’s row.';

export function InviteDialog() {
  const me = useUser();
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [role, setRole] = useState<OrganizationRole>('member');
  const [link, setLink] = useState<{ url: string; explanation: string } | null>(null);
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v2/users', { body: { email: email.trim(), first_name: firstName.trim(), last_name: lastName.trim(), role } })),
    onSuccess: async ({ data }) => {
      setOpen(false);
      setEmail('');
      setFirstName('');
      setLastName('');
      setRole('member');
      if (data.set_password_token !== null) setLink({ url: setPasswordLink(data.set_password_token), explanation: linkExplanation(data.user.email, data.set_password_token_expires_on) });
      await queryClient.invalidateQueries({ queryKey: peopleKeys.users });
    },
  });
  const emailValid = EMAIL.test(email.trim());
  const roles = grantableRoles(me);
  return (
    <>
      <FormDialog
        title="Invite a member"
        trigger={<Button variant="primary">Invite member</Button>}
        isOpen={isOpen}
        onOpenChange={(open) => {
          setOpen(open);
          if (!open) invite.reset();
        }}
        submitLabel="Invite"
        pendingLabel="Inviting…"
        isPending={invite.isPending}
        canSubmit={emailValid}
        error={invite.error}
        errorTitle="Not invited:"
        onSubmit={() => invite.mutate()}
      >
        <TextField
          label="E-mail"
          type="email"
          value={email}
          onChange={setEmail}
          isRequired
          maxLength={254}
          autoFocus
          isInvalid={email.trim() !== '' && !emailValid}
          errorMessage="An e-mail address, such as ada@example.com."
        />
        <div className="form-row">
          <TextField label="First name" value={firstName} onChange={setFirstName} maxLength={200} />
          <TextField label="Last name" value={lastName} onChange={setLastName} maxLength={200} />
        </div>
        <SelectField label="Role" options={ROLE_OPTIONS.filter((option) => roles.includes(option.id))} value={role} onChange={setRole} />
      </FormDialog>
      <OnceSecretDialog
        title="Invitation link"
        label="Set-password link"
        secret={link?.url ?? null}
        explanation={link?.explanation ?? ''}
        onClose={() => setLink(null)}
      />
    </>
  );
}

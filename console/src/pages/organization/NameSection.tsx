// The organization's name and description (PUT /api/v2/organizations/{org_id}); the header's
// account area and the profile read the name from the signed-in user, read again after a save.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ME_QUERY_KEY } from '../../session/session';
import { ErrorNote, SuccessNote } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { organizationKeys, type Organization } from './organization-api';

export function NameSection({ organization, mayChange }: { organization: Organization; mayChange: boolean }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [description, setDescription] = useState(organization.description);
  const save = useMutation({
    mutationFn: () =>
      unwrap(api.PUT('/api/v2/organizations/{org_id}', { params: { path: { org_id: organization.id } }, body: { name: name.trim(), description } })),
    onSuccess: async ({ data }) => {
      queryClient.setQueryData(organizationKeys.organization(organization.id), data);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });
  const changed = name.trim() !== organization.name || description !== organization.description;
  return (
    <section className="card settings-card" aria-labelledby="organization-name-heading">
      <h2 id="organization-name-heading">Name</h2>
      <Form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() !== '' && changed) save.mutate();
        }}
      >
        <TextField
          label="Organization name"
          value={name}
          onChange={(value) => {
            setName(value);
            save.reset();
          }}
          isRequired
          maxLength={200}
          isReadOnly={!mayChange}
          isInvalid={name.trim() === ''}
          errorMessage="The organization needs a name."
        />
        <TextField
          label="Description"
          value={description}
          onChange={(value) => {
            setDescription(value);
            save.reset();
          }}
          multiline
          rows={2}
          maxLength={2000}
          isReadOnly={!mayChange}
        />
        {mayChange && (
          <div className="actions">
            <Button type="submit" variant="primary" isDisabled={!changed || name.trim() === '' || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save name'}
            </Button>
          </div>
        )}
        <ErrorNote error={save.error} title="Not saved:" />
        {save.isSuccess && !changed && <SuccessNote>Saved.</SuccessNote>}
      </Form>
    </section>
  );
}

// Connecting a document library (SharePoint or OneDrive, through Microsoft Graph) to a corpus: the app
// registration's tenant, client id and secret, the library (a site or a drive) and optionally one
// folder. The secret is sent once and never shown again; its first sync runs when asked ("Sync now")
// or by the schedule.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { scheduleOf, ScheduleField } from './ScheduleField';
import { createConnector, sourceKeys } from './sources-api';
import { WritableCorpusField } from './WritableCorpusField';

const EMPTY = { name: '', tenant: '', client: '', secret: '', site: '', drive: '', folder: '', schedule: '' };

export function NewConnectorDialog({ blocked }: { blocked: string | null }) {
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [corpusId, setCorpusId] = useState<number | null>(null);
  const set = (field: keyof typeof EMPTY) => (value: string) => setForm((before) => ({ ...before, [field]: value }));
  const schedule = scheduleOf(form.schedule);
  const oneLibrary = (form.site.trim() === '') !== (form.drive.trim() === '');
  const create = useMutation({
    mutationFn: () =>
      createConnector({
        name: form.name.trim(),
        corpus_id: corpusId!,
        tenant_id: form.tenant.trim(),
        client_id: form.client.trim(),
        client_secret: form.secret.trim(),
        ...(form.site.trim() !== '' ? { site_id: form.site.trim() } : { drive_id: form.drive.trim() }),
        folder_path: form.folder.trim() === '' ? null : form.folder.trim(),
        schedule_minutes: schedule ?? null,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sourceKeys.connectors });
      setForm(EMPTY);
      setCorpusId(null);
      setOpen(false);
    },
  });
  if (blocked !== null) {
    return (
      <Button variant="primary" isDisabled aria-describedby="library-blocked">
        Add a document library
      </Button>
    );
  }
  const filled = [form.name, form.tenant, form.client, form.secret].every((text) => text.trim() !== '');
  return (
    <FormDialog
      title="Add a document library"
      trigger={<Button variant="primary">Add a document library</Button>}
      isOpen={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) create.reset();
      }}
      submitLabel="Add library"
      pendingLabel="Adding…"
      isPending={create.isPending}
      canSubmit={filled && corpusId !== null && oneLibrary && schedule !== undefined}
      error={create.error}
      errorTitle="The library was not added."
      onSubmit={() => create.mutate()}
    >
      <TextField label="Name" value={form.name} onChange={set('name')} isRequired maxLength={200} autoFocus description="Unique among the organization’s libraries." />
      <WritableCorpusField value={corpusId} onChange={setCorpusId} purpose="Where the library’s documents go." />
      <fieldset className="source-fieldset">
        <legend>Azure app registration</legend>
        <TextField label="Directory (tenant) id" value={form.tenant} onChange={set('tenant')} isRequired maxLength={200} description="Its GUID, or the tenant’s domain." />
        <TextField label="Application (client) id" value={form.client} onChange={set('client')} isRequired maxLength={200} />
        <TextField label="Client secret" type="password" value={form.secret} onChange={set('secret')} isRequired maxLength={2000} description="Kept sealed on the server and never shown again." />
      </fieldset>
      <fieldset className="source-fieldset">
        <legend>Library</legend>
        <p className="muted text-small">Give the drive id of the library, or the id of a SharePoint site (its default library): one of the two.</p>
        <TextField label="Drive id" value={form.drive} onChange={set('drive')} maxLength={500} isDisabled={form.site.trim() !== ''} />
        <TextField label="Site id" value={form.site} onChange={set('site')} maxLength={500} isDisabled={form.drive.trim() !== ''} />
        <TextField label="Folder" value={form.folder} onChange={set('folder')} maxLength={1000} description="Optional, e.g. Policies/HR: only that folder is synced." />
      </fieldset>
      <ScheduleField value={form.schedule} onChange={set('schedule')} />
    </FormDialog>
  );
}

// Importing an OpenAPI document as API tools (/tools/import), by the tool-imports job: from a file or
// from an address the server fetches. The server lists the document's operations first (…/preview),
// to choose which to import, and the import names the document the preview fetched (document_ref);
// the job's progress and report are then on /tools/imports/:id.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { FileTrigger, Form, Input, Label, Radio, RadioGroup, SearchField } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { ApiToolsFlagNotice, useApiToolsEnabled } from './ApiToolsFlag';
import { CheckList } from './CheckList';
import { forgetToolLists, MANAGERS_ONLY } from './tools-api';

type Source = 'file' | 'url';
type Preview = Schemas['ToolImportPreview'];
/** The document as the server read it, and where it came from. */
interface Loaded {
  source: { document: string } | { url: string; document_ref?: string };
  label: string;
  preview: Preview;
}

export default function ImportPage() {
  const user = useUser();
  const flagOn = useApiToolsEnabled();
  const content = () => {
    if (!atLeast(user.role, 'admin')) return <p className="muted">{MANAGERS_ONLY}</p>;
    if (flagOn === undefined) return <Loading />;
    if (!flagOn) return <ApiToolsFlagNotice />;
    return <ImportForm organizationId={user.organization_id} />;
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to="/tools">Tools</Link>
      </p>
      <PageHeader title="Import an OpenAPI document" description="One API tool per operation chosen. Operations that cannot be made tools are skipped, each with the reason." />
      {content()}
    </>
  );
}

function ImportForm({ organizationId }: { organizationId: number }) {
  const [source, setSource] = useState<Source>('file');
  const [url, setUrl] = useState('');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [prefix, setPrefix] = useState('');
  const [serverUrl, setServerUrl] = useState('');
  const [secret, setSecret] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const read = useMutation({
    mutationFn: async ({ source }: { source: Loaded['source']; label: string }) =>
      (await unwrap(api.POST('/api/v2/organizations/{org_id}/tool-imports/preview', { params: { path: { org_id: organizationId } }, body: source }))).data,
    onMutate: () => setLoaded(null),
    onSuccess: (preview, { source, label }) => {
      // An address is imported from what the preview fetched (document_ref), not fetched again.
      setLoaded({ source: 'url' in source && preview.document_ref !== null ? { ...source, document_ref: preview.document_ref } : source, label, preview });
      setChosen(preview.operations.map((operation) => operation.operation));
    },
  });

  const start = useMutation({
    mutationFn: async () => {
      const all = chosen.length === loaded!.preview.operations.length;
      const body = {
        ...loaded!.source,
        ...(all ? {} : { operations: chosen }),
        ...(prefix === '' ? {} : { name_prefix: prefix }),
        ...(serverUrl.trim() === '' ? {} : { server_url: serverUrl.trim() }),
        ...(secret === '' ? {} : { secret }),
      };
      return (await unwrap(api.POST('/api/v2/organizations/{org_id}/tool-imports', { params: { path: { org_id: organizationId } }, body }))).data;
    },
    onSuccess: async (started) => {
      await forgetToolLists(queryClient);
      await navigate(`/tools/imports/${started.id}`);
    },
  });

  const prefixProblem = /^[a-zA-Z0-9_-]{0,32}$/.test(prefix) ? undefined : 'Letters, digits, _ and - only, at most 32';
  const ready = loaded !== null && chosen.length > 0;

  return (
    <Form
      className="form tool-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && prefixProblem === undefined) start.mutate();
      }}
    >
      <RadioGroup
        className="field source-choice"
        value={source}
        onChange={(value) => {
          setSource(value as Source);
          setLoaded(null);
          read.reset();
        }}
        orientation="horizontal"
      >
        <Label>The document</Label>
        <Radio value="file">
          <span className="radio-mark" aria-hidden="true" />A file
        </Radio>
        <Radio value="url">
          <span className="radio-mark" aria-hidden="true" />
          An address
        </Radio>
      </RadioGroup>
      {source === 'url' ? (
        <div className="url-source">
          <TextField label="Document address" value={url} onChange={setUrl} type="url" description="The server fetches it, only from hosts it may reach." />
          <Button onPress={() => read.mutate({ source: { url: url.trim() }, label: url.trim() })} isDisabled={!/^https?:\/\/\S+$/.test(url.trim()) || read.isPending}>
            List its operations
          </Button>
        </div>
      ) : (
        <div className="field">
          <span className="field-label" id="document-file-label">
            Document file
          </span>
          <FileTrigger
            acceptedFileTypes={['.json', '.yaml', '.yml', 'application/json', 'application/yaml', 'text/yaml']}
            onSelect={(files) => {
              const file = files?.[0];
              if (file !== undefined) void file.text().then((text) => read.mutate({ source: { document: text }, label: file.name }));
            }}
          >
            <Button aria-describedby="document-file-label document-file-name" isDisabled={read.isPending}>
              Choose a file…
            </Button>
          </FileTrigger>
          <span id="document-file-name" className="muted text-small">
            OpenAPI 3 or Swagger 2, JSON or YAML.
          </span>
        </div>
      )}
      {read.isPending && <Loading label="Reading the document…" />}
      <ErrorNote error={read.error} title="The document could not be read." />
      {loaded !== null && (
        <>
          <p role="status">
            {loaded.label}: {loaded.preview.title ?? 'an untitled API'}, {loaded.preview.operations.length} operations.
          </p>
          <div className="actions">
            <Button className="button-compact" onPress={() => setChosen(loaded.preview.operations.map((operation) => operation.operation))}>
              Choose all
            </Button>
            <Button className="button-compact" onPress={() => setChosen([])}>
              Choose none
            </Button>
            <span className="muted text-small">
              {chosen.length} of {loaded.preview.operations.length} chosen
            </span>
          </div>
          <OperationChoice operations={loaded.preview.operations} chosen={chosen} onChange={setChosen} />
        </>
      )}
      <div className="form-row">
        <TextField label="Name prefix" value={prefix} onChange={setPrefix} isInvalid={prefixProblem !== undefined} errorMessage={prefixProblem} description="Put before each tool’s name, e.g. shop_." />
        <TextField label="Server URL (optional)" value={serverUrl} onChange={setServerUrl} description="The API’s address, instead of the document’s servers." />
      </div>
      <TextField label="Secret (optional)" type="password" autoComplete="new-password" value={secret} onChange={setSecret} description="The API key or token given to every tool made, as the document’s security says it is sent." />
      <ErrorNote error={start.error} title="The import was not started." />
      <div className="actions">
        <Button type="submit" variant="primary" isDisabled={!ready || start.isPending || prefixProblem !== undefined}>
          {start.isPending ? 'Starting…' : 'Import'}
        </Button>
      </div>
    </Form>
  );
}

/**
 * The document's operations to choose from, narrowed by a filter (GitHub's description has 1,200):
 * the operations the filter hides stay chosen or not as they were.
 */
function OperationChoice({ operations, chosen, onChange }: { operations: Preview['operations']; chosen: string[]; onChange: (chosen: string[]) => void }) {
  const [filter, setFilter] = useState('');
  const words = useDeferredValue(filter).trim().toLowerCase().split(/\s+/).filter(Boolean);
  const items = operations
    .map((operation) => ({ id: operation.operation, label: operation.operation, detail: [`${operation.method} ${operation.path}`, operation.summary].filter(Boolean).join(' · ') }))
    .filter((item) => words.every((word) => `${item.label} ${item.detail}`.toLowerCase().includes(word)));
  return (
    <>
      <SearchField className="field" value={filter} onChange={setFilter}>
        <Label>Filter the operations</Label>
        <Input placeholder="Name, method, path or summary" />
      </SearchField>
      {words.length > 0 && (
        <p role="status" className="muted text-small">
          {items.length === 0 ? 'No operation matches the filter.' : `${items.length} of ${operations.length} operations shown.`}
        </p>
      )}
      <CheckList label="Operations to import" items={items} selected={chosen} onChange={onChange} />
    </>
  );
}

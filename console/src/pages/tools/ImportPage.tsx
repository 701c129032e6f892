// Importing an OpenAPI document as API tools (/tools/import), by the tool-imports job: from a file,
// read here first so that the operations to import are chosen from a preview, or from an address the
// server fetches (every operation then). The job's progress and report are on /tools/imports/:id.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FileTrigger, Form, Label, Radio, RadioGroup } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { ApiToolsFlagNotice, useApiToolsEnabled } from './ApiToolsFlag';
import { CheckList } from './CheckList';
import { previewDocument, type PreviewDocument } from './openapi-operations';
import { forgetToolLists, MANAGERS_ONLY } from './tools-api';

type Source = 'file' | 'url';
interface Loaded {
  fileName: string;
  text: string;
  preview: PreviewDocument;
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
  const [readProblem, setReadProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [prefix, setPrefix] = useState('');
  const [serverUrl, setServerUrl] = useState('');
  const [secret, setSecret] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const readFile = async (file: File) => {
    setLoaded(null);
    setReadProblem(null);
    try {
      const text = await file.text();
      const preview = await previewDocument(text);
      setLoaded({ fileName: file.name, text, preview });
      setChosen(preview.operations.map((operation) => operation.key));
    } catch (error) {
      setReadProblem((error as Error).message);
    }
  };

  const start = useMutation({
    mutationFn: async () => {
      const all = loaded !== null && chosen.length === loaded.preview.operations.length;
      const body = {
        ...(source === 'url' ? { url: url.trim() } : { document: loaded!.text, ...(all ? {} : { operations: chosen }) }),
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
  const ready = source === 'url' ? /^https?:\/\/\S+$/.test(url.trim()) : loaded !== null && chosen.length > 0;

  return (
    <Form
      className="form tool-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && prefixProblem === undefined) start.mutate();
      }}
    >
      <RadioGroup className="field source-choice" value={source} onChange={(value) => setSource(value as Source)} orientation="horizontal">
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
        <TextField label="Document address" value={url} onChange={setUrl} isRequired type="url" description="The server fetches it (only from hosts it may reach) and imports every operation; the report lists what was skipped and why." />
      ) : (
        <div className="field">
          <span className="field-label" id="document-file-label">
            Document file
          </span>
          <FileTrigger acceptedFileTypes={['.json', '.yaml', '.yml', 'application/json', 'application/yaml', 'text/yaml']} onSelect={(files) => files?.[0] && void readFile(files[0])}>
            <Button aria-describedby="document-file-label document-file-name">Choose a file…</Button>
          </FileTrigger>
          <span id="document-file-name" className="muted text-small">
            {loaded === null ? 'OpenAPI 3 or Swagger 2, JSON or YAML.' : `${loaded.fileName}: ${loaded.preview.title}, ${loaded.preview.operations.length} operations.`}
          </span>
          {readProblem !== null && (
            <p className="note note-error" role="alert">
              {readProblem}
            </p>
          )}
        </div>
      )}
      {source === 'file' && loaded !== null && (
        <>
          <div className="actions">
            <Button className="button-compact" onPress={() => setChosen(loaded.preview.operations.map((operation) => operation.key))}>
              Choose all
            </Button>
            <Button className="button-compact" onPress={() => setChosen([])}>
              Choose none
            </Button>
            <span className="muted text-small">
              {chosen.length} of {loaded.preview.operations.length} chosen
            </span>
          </div>
          <CheckList
            label="Operations to import"
            items={loaded.preview.operations.map((operation) => ({ id: operation.key, label: operation.key, detail: [`${operation.method} ${operation.path}`, operation.summary].filter(Boolean).join(' · ') }))}
            selected={chosen}
            onChange={setChosen}
          />
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

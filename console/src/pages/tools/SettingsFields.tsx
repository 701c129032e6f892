// The settings of each kind of tool, as fields: what the API's schema of the kind asks, said for people.
import { useQuery } from '@tanstack/react-query';
import { Checkbox } from 'react-aria-components';
import { corpusChoicesQuery } from '../../api/queries';
import { ErrorNote } from '../../ui/Feedback';
import { TextField } from '../../ui/Fields';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { CheckList } from './CheckList';
import type { Settings } from './tool-settings';
import type { ToolKind } from './tools-api';

interface SettingsFieldsProps {
  kind: ToolKind;
  settings: Settings;
  set: (key: string, value: string | boolean | string[]) => void;
}

const METHODS: SelectOption<string>[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ id: method, label: method }));
const AUTH: SelectOption<string>[] = [
  { id: 'none', label: 'None' },
  { id: 'api_key', label: 'API key', detail: 'In a header or a query parameter' },
  { id: 'bearer', label: 'Bearer token', detail: 'Authorization: Bearer …' },
  { id: 'basic', label: 'User name and password', detail: 'HTTP basic authentication' },
];
const KEY_PLACES: SelectOption<string>[] = [
  { id: 'header', label: 'Header' },
  { id: 'query', label: 'Query parameter' },
];
const TRANSPORTS: SelectOption<string>[] = [
  { id: 'auto', label: 'Automatic', detail: 'Streamable HTTP, else the older HTTP+SSE' },
  { id: 'streamable_http', label: 'Streamable HTTP' },
  { id: 'sse', label: 'HTTP+SSE' },
];
const PROVIDERS: SelectOption<string>[] = [
  { id: 'searxng', label: 'SearXNG', detail: 'A self-hosted instance' },
  { id: 'tavily', label: 'Tavily', detail: 'Hosted, with an API key' },
  { id: 'brave', label: 'Brave Search', detail: 'Hosted, with an API key' },
];

const HEADERS_HELP = 'One "Name: value" a line. Values read back as ****; leave **** to keep a stored value.';

export function SettingsFields({ kind, settings, set }: SettingsFieldsProps) {
  const field = (key: string) => ({ value: String(settings[key]), onChange: (value: string) => set(key, value) });
  switch (kind) {
    case 'api':
      return (
        <>
          <div className="form-row">
            <SelectField label="Method" options={METHODS} value={String(settings.method)} onChange={(value) => set('method', value)} />
            <TextField label="URL" {...field('url')} isRequired description="{name} in the path is replaced by that parameter." />
          </div>
          <TextField label="Parameters (JSON Schema)" {...field('parameters')} multiline rows={6} className="mono-field" description="The arguments the model gives: an object’s properties and which are required." />
          <TextField label="Locations (JSON, optional)" {...field('locations')} multiline rows={2} className="mono-field" description='Where each parameter goes, e.g. {"q": "query"}; by default path, else query for GET and DELETE, body for the others.' />
          <TextField label="Body template (JSON, optional)" {...field('body')} multiline rows={2} className="mono-field" />
          <TextField label="Headers" {...field('headers')} multiline rows={2} className="mono-field" description="One “Name: value” a line, sent with every call (put secrets in authentication)." />
          <div className="form-row">
            <SelectField label="Authentication" options={AUTH} value={String(settings.auth)} onChange={(value) => set('auth', value)} />
            {settings.auth === 'api_key' && (
              <>
                <SelectField label="Sent as" options={KEY_PLACES} value={String(settings.auth_in)} onChange={(value) => set('auth_in', value)} />
                <TextField label="Header or parameter name" {...field('auth_name')} isRequired placeholder="X-Api-Key" />
              </>
            )}
            {settings.auth === 'basic' && <TextField label="User name" {...field('username')} />}
          </div>
        </>
      );
    case 'mcp':
      return (
        <>
          <TextField label="Server URL" {...field('url')} isRequired description="The server’s MCP endpoint, e.g. https://mcp.example.com/mcp." />
          <SelectField label="Transport" options={TRANSPORTS} value={String(settings.transport)} onChange={(value) => set('transport', value)} />
          <TextField label="Headers" {...field('headers')} multiline rows={2} className="mono-field" description={HEADERS_HELP} />
        </>
      );
    case 'web_search':
      return (
        <>
          <SelectField label="Provider" options={PROVIDERS} value={String(settings.provider)} onChange={(value) => set('provider', value)} />
          <TextField
            label={settings.provider === 'searxng' ? 'Instance address' : 'Address (optional)'}
            {...field('base_url')}
            isRequired={settings.provider === 'searxng'}
            description={settings.provider === 'searxng' ? 'The SearXNG instance, e.g. https://search.example.com.' : 'Replaces the provider’s own address.'}
          />
          <TextField label="Most results" {...field('max_results')} inputMode="numeric" description="From 1 to 10." />
          <Checkbox isSelected={settings.fetch_pages === true} onChange={(value) => set('fetch_pages', value)}>
            {({ isSelected }) => (
              <>
                <span className="box" aria-hidden="true">
                  {isSelected ? '✓' : ''}
                </span>
                Read the top results’ pages too
              </>
            )}
          </Checkbox>
        </>
      );
    case 'retrieval':
      return <RetrievalFields settings={settings} set={set} />;
    case 'attachment':
      return <TextField label="Most characters read at once" {...field('max_characters')} inputMode="numeric" description="From 100 to 200,000." />;
  }
}

function RetrievalFields({ settings, set }: Omit<SettingsFieldsProps, 'kind'>) {
  const corpora = useQuery(corpusChoicesQuery());
  return (
    <>
      <ErrorNote error={corpora.error} title="The corpora could not be loaded." />
      {corpora.data !== undefined &&
        (corpora.data.length === 0 ? (
          <p className="muted">The organization has no corpus yet: create one first, on the Corpora page.</p>
        ) : (
          <CheckList
            label="Corpora searched"
            description="At run time, only those the person asking may read are searched."
            items={corpora.data.map((corpus) => ({ id: String(corpus.id), label: corpus.name, detail: corpus.description }))}
            selected={settings.corpus_ids as string[]}
            onChange={(value) => set('corpus_ids', value)}
          />
        ))}
      <TextField label="Passages" value={String(settings.passages)} onChange={(value) => set('passages', value)} inputMode="numeric" description="Most passages given to the model, from 1 to 20." />
    </>
  );
}

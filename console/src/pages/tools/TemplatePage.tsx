// An API tool made from a template (/tools/new/template): a public API described by the server, its
// settings ready; a name of one's own and the API's key where it takes one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form, Label, Radio, RadioGroup, Text } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { ApiToolsFlagNotice, useApiToolsEnabled } from './ApiToolsFlag';
import { createFromTemplate } from './tool-changes';
import { forgetToolLists, MANAGERS_ONLY, templatesQuery } from './tools-api';

export default function TemplatePage() {
  const user = useUser();
  const flagOn = useApiToolsEnabled();
  const templates = useQuery(templatesQuery());
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => createFromTemplate(user.organization_id, chosen!, name.trim(), secret),
    onSuccess: async (tool) => {
      await forgetToolLists(queryClient);
      await navigate(`/tools/${tool.id}`);
    },
  });
  const template = templates.data?.find((candidate) => candidate.id === chosen);
  const content = () => {
    if (!atLeast(user.role, 'admin')) return <p className="muted">{MANAGERS_ONLY}</p>;
    if (flagOn === false) return <ApiToolsFlagNotice />;
    if (templates.data === undefined) return templates.error ? <ErrorNote error={templates.error} title="The templates could not be loaded." /> : <Loading />;
    return (
      <Form
        className="form tool-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen !== null) create.mutate();
        }}
      >
        <RadioGroup className="field template-choice" value={chosen} onChange={setChosen} isRequired>
          <Label>Template</Label>
          {templates.data.map((entry) => (
            <Radio key={entry.id} value={entry.id}>
              <span className="radio-mark" aria-hidden="true" />
              <span className="check-text">
                <span>{entry.title}</span>
                <span className="choice-detail">{entry.description}</span>
              </span>
            </Radio>
          ))}
          <Text slot="description">Public APIs described by the server, their settings ready to use.</Text>
        </RadioGroup>
        {template !== undefined && (
          <>
            <p>
              <a href={template.documentation_url} target="_blank" rel="noreferrer">
                {template.title}: the API’s documentation
              </a>{' '}
              · {template.config.method} <code className="break-anywhere">{template.config.url}</code>
            </p>
            <TextField label="Name" value={name} onChange={setName} placeholder={template.name} description={`What the model calls it by; ${template.name} when left empty.`} />
            {template.secret !== null && (
              <TextField label="API key" type="password" autoComplete="new-password" value={secret} onChange={setSecret} isRequired={template.secret.required} description={template.secret.description} />
            )}
          </>
        )}
        <ErrorNote error={create.error} title="The tool was not made." />
        <div className="actions">
          <Button type="submit" variant="primary" isDisabled={chosen === null || create.isPending}>
            {create.isPending ? 'Adding…' : 'Add API tool'}
          </Button>
        </div>
      </Form>
    );
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to="/tools">Tools</Link>
      </p>
      <PageHeader title="New API tool from a template" />
      {content()}
    </>
  );
}

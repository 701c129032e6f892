// Writing a tool whole, to create it or change it: its name (as the model calls it), what it does (as
// the model reads it), the settings of its kind and its secret. The secret is write-only: on a change,
// left empty it is kept (its hint is shown). What the API would refuse is said before sending.
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { ErrorNote } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { SettingsFields } from './SettingsFields';
import { madeConfig, secretLabel, settingsOf, type Settings } from './tool-settings';
import type { Tool, ToolKind } from './tools-api';

export interface ToolBody {
  name: string;
  description?: string;
  config: Record<string, unknown>;
  secret?: string;
}

interface ToolFormProps {
  kind: ToolKind;
  /** The tool changed; absent when one is created. */
  tool?: Tool;
  submitLabel: string;
  pendingLabel: string;
  isPending: boolean;
  error: unknown;
  onSubmit: (body: ToolBody) => void;
  onCancel?: () => void;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function ToolForm({ kind, tool, submitLabel, pendingLabel, isPending, error, onSubmit, onCancel }: ToolFormProps) {
  const [name, setName] = useState(tool?.name ?? '');
  const [description, setDescription] = useState(tool?.description ?? '');
  const [secret, setSecret] = useState('');
  const [settings, setSettings] = useState<Settings>(() => settingsOf(kind, tool));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (key: string, value: string | boolean | string[]) => setSettings((current) => ({ ...current, [key]: value }));
  const nameProblem = name !== '' && !NAME_PATTERN.test(name) ? 'Letters, digits, _ and - only, at most 64' : undefined;
  const secretName = secretLabel(kind, settings);
  const hint = tool?.secret_hint ?? null;

  return (
    <Form
      className="form tool-form"
      onSubmit={(event) => {
        event.preventDefault();
        const made = madeConfig(kind, settings);
        if ('problem' in made) return setProblem(made.problem);
        setProblem(null);
        onSubmit({ name, ...(description.trim() === '' ? {} : { description }), config: made.config, ...(secret === '' ? {} : { secret }) });
      }}
    >
      <TextField label="Name" value={name} onChange={setName} isRequired isInvalid={nameProblem !== undefined} errorMessage={nameProblem} description="What the model calls it by: letters, digits, _ and -; unique in the organization." />
      <TextField
        label="Description"
        value={description}
        onChange={setDescription}
        multiline
        rows={3}
        maxLength={2000}
        isRequired={kind === 'api'}
        description={kind === 'api' ? 'What it does and when to use it, as the model reads it.' : 'What it does, as the model reads it; one is written when left empty.'}
      />
      <SettingsFields kind={kind} settings={settings} set={set} />
      {secretName !== null && (
        <TextField
          label={secretName}
          type="password"
          autoComplete="new-password"
          value={secret}
          onChange={setSecret}
          description={hint === null ? 'Stored sealed; never shown again.' : `Stored as ${hint}. Leave empty to keep it; type a new one to replace it.`}
        />
      )}
      {problem !== null && (
        <p className="note note-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNote error={error} title="The tool was not saved." />
      <div className="actions">
        <Button type="submit" variant="primary" isDisabled={isPending || name === '' || nameProblem !== undefined}>
          {isPending ? pendingLabel : submitLabel}
        </Button>
        {onCancel !== undefined && <Button onPress={onCancel}>Cancel</Button>}
      </div>
    </Form>
  );
}

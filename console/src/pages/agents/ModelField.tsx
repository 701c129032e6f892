// Which LLM configuration the agent answers with: one of the organization's, or its default (the one
// marked default now, whichever that is when the agent answers).
import { ErrorNote } from '../../ui/Feedback';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { useLlmConfigurations } from './useAgentChoices';

const ORGANIZATION_DEFAULT = 'default';

interface ModelFieldProps {
  value: number | null;
  onChange: (value: number | null) => void;
  errorMessage?: string;
  isReadOnly: boolean;
}

export function ModelField({ value, onChange, errorMessage, isReadOnly }: ModelFieldProps) {
  const configurations = useLlmConfigurations();
  const all = configurations.data ?? [];
  const organizationDefault = all.find((configuration) => configuration.is_default);
  const choices: SelectOption<string>[] = [
    {
      id: ORGANIZATION_DEFAULT,
      label: 'Organization default',
      detail: organizationDefault === undefined ? 'None is set: the built-in offline answerer' : `Now ${organizationDefault.name}`,
    },
    ...all.map((configuration) => ({ id: String(configuration.id), label: configuration.name, detail: `${configuration.provider} · ${configuration.model}` })),
  ];
  // An agent may name a configuration this list does not hold (removed meanwhile): it stays shown.
  if (value !== null && !all.some((configuration) => configuration.id === value)) choices.push({ id: String(value), label: `Configuration ${value}` });
  return (
    <>
      <SelectField
        label="LLM configuration"
        description="The model that writes the answers."
        options={choices}
        value={value === null ? ORGANIZATION_DEFAULT : String(value)}
        onChange={(key) => onChange(key === ORGANIZATION_DEFAULT ? null : Number(key))}
        errorMessage={errorMessage}
        isDisabled={isReadOnly}
      />
      <ErrorNote error={configurations.error} title="The LLM configurations could not be read." />
    </>
  );
}

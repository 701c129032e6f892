// Adding or changing an LLM configuration in a dialog. The key is write-only: it is typed once, sent,
// and never shown again; the field stays empty afterwards and says whether a key is set (with the hint
// the server gives, such as sk-…abcd). An empty field keeps the stored key; it is sent only when typed
// anew, or removed when asked.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { OptionalNumberField } from '../../ui/OptionalNumberField';
import { SelectField } from '../../ui/SelectField';
import { createBodyOf, draftOf, LIMITS, NEW_CONFIGURATION, problemsOf, updateBodyOf, type ConfigurationDraft } from './configurationDraft';
import { llmConfigurationsQuery, NEEDS_BASE_URL, PROVIDER_NAMES, PROVIDERS, type LlmConfiguration } from './model-api';

const PROVIDER_OPTIONS = PROVIDERS.map((id) => ({ id, label: PROVIDER_NAMES[id] }));

interface ConfigurationDialogProps {
  organizationId: number;
  /** The configuration changed; null to add one. */
  configuration: LlmConfiguration | null;
}

function keyDescription(configuration: LlmConfiguration | null): string {
  if (configuration === null) return 'Stored encrypted and never shown again.';
  if (configuration.api_key_hint !== null && configuration.api_key_hint !== undefined) {
    return `Key set (${configuration.api_key_hint}): it is never shown. Leave empty to keep it, or type a new one to replace it.`;
  }
  return 'No key set. A key typed here is stored encrypted and never shown again.';
}

export function ConfigurationDialog({ organizationId, configuration }: ConfigurationDialogProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ConfigurationDraft>(NEW_CONFIGURATION);
  const [triedToSave, setTriedToSave] = useState(false);
  const problems = triedToSave ? problemsOf(draft) : {};
  const set = (change: Partial<ConfigurationDraft>) => setDraft((current) => ({ ...current, ...change }));
  const save = useMutation({
    mutationFn: async (sent: ConfigurationDraft) => {
      if (configuration === null) {
        return unwrap(api.POST('/api/v2/organizations/{org_id}/llm-configurations', { params: { path: { org_id: organizationId } }, body: createBodyOf(sent) }));
      }
      const path = { org_id: organizationId, llm_configuration_id: configuration.id };
      return unwrap(api.PUT('/api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}', { params: { path }, body: updateBodyOf(sent, configuration) }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: llmConfigurationsQuery(organizationId).queryKey }),
  });
  const [isOpen, setOpen] = useState(false);
  const hasKey = configuration?.api_key_hint !== null && configuration?.api_key_hint !== undefined;

  return (
    <FormDialog
      title={configuration === null ? 'New LLM configuration' : `Change ${configuration.name}`}
      trigger={
        configuration === null ? (
          <Button variant="primary">Add configuration</Button>
        ) : (
          <Button variant="quiet" className="button-compact" aria-label={`Change ${configuration.name}`}>
            Change
          </Button>
        )
      }
      isOpen={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (open) {
          // Each opening starts from what is stored, with the key field empty.
          setDraft(configuration === null ? NEW_CONFIGURATION : draftOf(configuration));
          setTriedToSave(false);
          save.reset();
        }
      }}
      submitLabel={configuration === null ? 'Add configuration' : 'Save changes'}
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit
      error={save.error}
      errorTitle="The configuration could not be saved."
      onSubmit={() => {
        setTriedToSave(true);
        if (Object.keys(problemsOf(draft)).length === 0) save.mutate(draft, { onSuccess: () => setOpen(false) });
      }}
    >
      <TextField label="Name" value={draft.name} onChange={(name) => set({ name })} isRequired validationBehavior="aria" maxLength={LIMITS.name} isInvalid={problems.name !== undefined} errorMessage={problems.name} />
      <SelectField label="Provider" options={PROVIDER_OPTIONS} value={draft.provider} onChange={(provider) => set({ provider })} />
      <TextField
        label="Model"
        value={draft.model}
        onChange={(model) => set({ model })}
        isRequired
        validationBehavior="aria"
        maxLength={LIMITS.model}
        description={draft.provider === 'azure_openai' ? 'The deployment name.' : 'As the provider names it, e.g. gpt-4o-mini.'}
        isInvalid={problems.model !== undefined}
        errorMessage={problems.model}
      />
      <TextField
        label="Base URL"
        value={draft.baseUrl}
        onChange={(baseUrl) => set({ baseUrl })}
        isRequired={NEEDS_BASE_URL.has(draft.provider)}
        validationBehavior="aria"
        maxLength={LIMITS.baseUrl}
        inputMode="url"
        description={NEEDS_BASE_URL.has(draft.provider) ? 'Where the provider answers.' : 'Empty: the provider’s own address.'}
        isInvalid={problems.baseUrl !== undefined}
        errorMessage={problems.baseUrl}
      />
      {draft.provider === 'azure_openai' && (
        <TextField
          label="API version"
          value={draft.apiVersion}
          onChange={(apiVersion) => set({ apiVersion })}
          maxLength={LIMITS.apiVersion}
          description="e.g. 2024-10-21; empty: Azure’s v1 API."
          isInvalid={problems.apiVersion !== undefined}
          errorMessage={problems.apiVersion}
        />
      )}
      <TextField
        label="API key"
        type="password"
        autoComplete="new-password"
        value={draft.apiKey}
        onChange={(apiKey) => set({ apiKey, removeKey: false })}
        maxLength={LIMITS.apiKey}
        placeholder={hasKey ? '•••• key set' : undefined}
        isDisabled={draft.removeKey}
        description={keyDescription(configuration)}
        isInvalid={problems.apiKey !== undefined}
        errorMessage={problems.apiKey}
      />
      {hasKey && (
        <Checkbox isSelected={draft.removeKey} onChange={(removeKey) => set({ removeKey, apiKey: '' })}>
          {({ isSelected }) => (
            <>
              <span className="box" aria-hidden="true">
                {isSelected ? '✓' : ''}
              </span>
              Remove the stored key
            </>
          )}
        </Checkbox>
      )}
      <div className="form-row">
        <OptionalNumberField
          label="Input price"
          value={draft.inputPrice}
          onChange={(inputPrice) => set({ inputPrice })}
          minValue={0}
          maxValue={LIMITS.price}
          fractionDigits={6}
          description="USD per million tokens; empty: unknown (no cost is counted)."
          errorMessage={problems.inputPrice}
        />
        <OptionalNumberField
          label="Output price"
          value={draft.outputPrice}
          onChange={(outputPrice) => set({ outputPrice })}
          minValue={0}
          maxValue={LIMITS.price}
          fractionDigits={6}
          description="USD per million tokens; empty: unknown."
          errorMessage={problems.outputPrice}
        />
      </div>
      <div className="form-row">
        <OptionalNumberField
          label="Context window"
          value={draft.contextWindow}
          onChange={(contextWindow) => set({ contextWindow })}
          minValue={1}
          maxValue={LIMITS.contextWindow}
          description="Tokens the model takes in at most; empty: unknown."
          errorMessage={problems.contextWindow}
        />
        <OptionalNumberField
          label="Most tokens an answer takes"
          value={draft.maxAnswerTokens}
          onChange={(maxAnswerTokens) => set({ maxAnswerTokens })}
          minValue={1}
          maxValue={LIMITS.answerTokens}
          description="4096 when empty."
          errorMessage={problems.maxAnswerTokens}
        />
      </div>
      {!(configuration?.is_default ?? false) && (
        <Checkbox isSelected={draft.isDefault} onChange={(isDefault) => set({ isDefault })}>
          {({ isSelected }) => (
            <>
              <span className="box" aria-hidden="true">
                {isSelected ? '✓' : ''}
              </span>
              The default: agents without a model of their own answer with it
            </>
          )}
        </Checkbox>
      )}
    </FormDialog>
  );
}

// Defining a metric, or changing one: a name, the kind (fixed once defined), its parameters, a
// threshold, and for judge kinds the rubric and the model that judges.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { llmConfigurationsQuery } from '../../../api/queries';
import { useUser } from '../../../session/session';
import { Button, TextField } from '../../../ui/Fields';
import { FormDialog } from '../../../ui/FormDialog';
import { SelectField } from '../../../ui/SelectField';
import { evaluationKeys, type Metric, type MetricKind } from '../evaluations-api';
import { KIND_INFO, KIND_OPTIONS } from './metric-kinds';

/** The judge chosen when none is named: the run's, else the organization's judge or default model. */
const DEFAULT_JUDGE = 0;

interface Draft {
  name: string;
  kind: MetricKind | null;
  description: string;
  threshold: string;
  rubric: string;
  judge: number;
  k: string;
  text: string;
  caseSensitive: boolean;
  pattern: string;
  flags: string;
  mustMatch: boolean;
  normalize: boolean;
  unit: 'words' | 'characters' | 'tokens';
}

function draftOf(metric: Metric | undefined): Draft {
  const parameters = (metric?.parameters ?? {}) as Record<string, unknown>;
  return {
    name: metric?.name ?? '',
    kind: metric?.kind ?? null,
    description: metric?.description ?? '',
    threshold: metric?.threshold === null || metric?.threshold === undefined ? '' : String(metric.threshold),
    rubric: metric?.rubric ?? '',
    judge: metric?.llm_configuration_id ?? DEFAULT_JUDGE,
    k: typeof parameters.k === 'number' ? String(parameters.k) : '',
    text: typeof parameters.text === 'string' ? parameters.text : '',
    caseSensitive: parameters.case_sensitive === true,
    pattern: typeof parameters.pattern === 'string' ? parameters.pattern : '',
    flags: typeof parameters.flags === 'string' ? parameters.flags : '',
    mustMatch: parameters.must_match !== false,
    normalize: parameters.normalize !== false,
    unit: parameters.unit === 'characters' || parameters.unit === 'tokens' ? parameters.unit : 'words',
  };
}

function parametersOf(draft: Draft): Record<string, unknown> {
  switch (draft.kind === null ? undefined : KIND_INFO[draft.kind].parameters) {
    case 'k':
      return draft.k.trim() === '' ? {} : { k: Number(draft.k) };
    case 'contains':
      return { ...(draft.text.trim() === '' ? {} : { text: draft.text }), case_sensitive: draft.caseSensitive };
    case 'regex':
      return { pattern: draft.pattern, ...(draft.flags === '' ? {} : { flags: draft.flags }), must_match: draft.mustMatch };
    case 'normalize':
      return { normalize: draft.normalize };
    case 'unit':
      return { unit: draft.unit };
    default:
      return {};
  }
}

/** What is wrong before sending (as the server would say), or undefined. */
function problemOf(draft: Draft): string | undefined {
  if (draft.threshold.trim() !== '' && !Number.isFinite(Number(draft.threshold))) return 'The threshold is a number.';
  if (draft.kind === null) return undefined;
  const info = KIND_INFO[draft.kind];
  if (info.parameters === 'k' && draft.k.trim() !== '' && !/^(100|[1-9][0-9]?)$/.test(draft.k.trim())) return 'k is a whole number from 1 to 100.';
  if (info.parameters === 'regex' && !/^(?!.*(.).*\1)[imsu]*$/.test(draft.flags)) return 'The flags are among i, m, s and u, each once.';
  return undefined;
}

function canSend(draft: Draft): boolean {
  if (draft.name.trim() === '' || draft.kind === null || problemOf(draft) !== undefined) return false;
  if (KIND_INFO[draft.kind].parameters === 'regex' && draft.pattern === '') return false;
  return KIND_INFO[draft.kind].judge?.rubric !== 'required' || draft.rubric.trim() !== '';
}

function Check({ label, isSelected, onChange }: { label: string; isSelected: boolean; onChange: (value: boolean) => void }) {
  return (
    <Checkbox isSelected={isSelected} onChange={onChange}>
      <span className="box" aria-hidden="true">
        {isSelected ? '✓' : ''}
      </span>
      {label}
    </Checkbox>
  );
}

export function MetricDialog({ metric }: { metric?: Metric }) {
  const queryClient = useQueryClient();
  const configurations = useQuery(llmConfigurationsQuery(useUser().organization_id));
  const [draft, setDraft] = useState<Draft>(() => draftOf(metric));
  const [open, setOpen] = useState(false);
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const save = useMutation({
    mutationFn: async () => {
      const judge = draft.kind !== null && KIND_INFO[draft.kind].judge !== undefined;
      const rubricKind = draft.kind !== null && KIND_INFO[draft.kind].judge?.rubric !== undefined;
      const fields = {
        name: draft.name.trim(),
        description: draft.description,
        parameters: parametersOf(draft),
        threshold: draft.threshold.trim() === '' ? null : Number(draft.threshold),
        ...(rubricKind ? { rubric: draft.rubric.trim() === '' ? null : draft.rubric } : {}),
        ...(judge ? { llm_configuration_id: draft.judge === DEFAULT_JUDGE ? null : draft.judge } : {}),
      };
      if (metric === undefined) return unwrap(api.POST('/api/v2/metrics', { body: { ...fields, kind: draft.kind! } }));
      return unwrap(api.PUT('/api/v2/metrics/{metric_id}', { params: { path: { metric_id: metric.id } }, body: fields }));
    },
    onSuccess: async () => {
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.metrics });
    },
  });
  const info = draft.kind === null ? undefined : KIND_INFO[draft.kind];
  const judges = [
    { id: DEFAULT_JUDGE, label: 'The run’s judge, else the organization’s', detail: 'Chosen when a run starts' },
    ...(configurations.data ?? []).map((configuration) => ({ id: configuration.id, label: configuration.name, detail: `${configuration.provider} · ${configuration.model}` })),
  ];
  return (
    <FormDialog
      title={metric === undefined ? 'New metric' : `Edit ${metric.name}`}
      trigger={
        metric === undefined ? (
          <Button variant="primary">New metric</Button>
        ) : (
          <Button variant="quiet" className="button-compact" aria-label={`Edit ${metric.name}`}>
            Edit
          </Button>
        )
      }
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setDraft(draftOf(metric));
        else save.reset();
      }}
      submitLabel={metric === undefined ? 'Define metric' : 'Save metric'}
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit={canSend(draft)}
      error={save.error ?? (problemOf(draft) === undefined ? null : new Error(problemOf(draft)))}
      onSubmit={() => save.mutate()}
    >
      <TextField label="Name" value={draft.name} onChange={(name) => set({ name })} isRequired maxLength={200} autoFocus description="Unique in your organization." />
      {metric === undefined ? (
        <SelectField label="Kind" options={KIND_OPTIONS} value={draft.kind} onChange={(kind) => set({ kind })} placeholder="Choose what it measures" />
      ) : (
        <p>
          <span className="muted">Kind:</span> {KIND_INFO[metric.kind].label} <span className="muted text-small">(fixed once defined)</span>
        </p>
      )}
      {info !== undefined && <p className="muted text-small">{info.detail}.</p>}
      <TextField label="Description" value={draft.description} onChange={(description) => set({ description })} multiline rows={2} maxLength={2000} />
      {info?.parameters === 'k' && <TextField label="k" inputMode="numeric" value={draft.k} onChange={(k) => set({ k })} description="How many of the best-ranked documents count (1 to 100; default 5)." />}
      {info?.parameters === 'contains' && (
        <div className="metric-params">
          <TextField label="Text to find" value={draft.text} onChange={(text) => set({ text })} maxLength={2000} description="Leave empty to look for the expected answer." />
          <Check label="Case sensitive" isSelected={draft.caseSensitive} onChange={(caseSensitive) => set({ caseSensitive })} />
        </div>
      )}
      {info?.parameters === 'regex' && (
        <div className="metric-params">
          <TextField label="Pattern" value={draft.pattern} onChange={(pattern) => set({ pattern })} isRequired maxLength={1000} description="Run on RE2: no lookaround, no backreferences." />
          <TextField label="Flags" value={draft.flags} onChange={(flags) => set({ flags })} maxLength={4} description="Among i, m, s, u." />
          <Check label="Passes when the answer matches" isSelected={draft.mustMatch} onChange={(mustMatch) => set({ mustMatch })} />
        </div>
      )}
      {info?.parameters === 'normalize' && <Check label="Ignore case, punctuation and articles" isSelected={draft.normalize} onChange={(normalize) => set({ normalize })} />}
      {info?.parameters === 'unit' && (
        <SelectField
          label="Counted in"
          options={[
            { id: 'words', label: 'Words' },
            { id: 'characters', label: 'Characters' },
            { id: 'tokens', label: 'Tokens' },
          ]}
          value={draft.unit}
          onChange={(unit) => set({ unit })}
        />
      )}
      <TextField
        label="Threshold"
        inputMode="decimal"
        value={draft.threshold}
        onChange={(threshold) => set({ threshold })}
        description="A result passes at this score or above (at most, for length, latency and cost); leave empty for no pass rate."
      />
      {info?.judge?.rubric !== undefined && (
        <TextField
          label="Rubric"
          value={draft.rubric}
          onChange={(rubric) => set({ rubric })}
          multiline
          rows={4}
          maxLength={10_000}
          isRequired={info.judge.rubric === 'required'}
          description={info.judge.rubric === 'required' ? 'What the judge grades the answer against.' : 'Leave empty for the default rubric.'}
        />
      )}
      {info?.judge !== undefined && <SelectField label="Judge model" options={judges} value={draft.judge} onChange={(judge) => set({ judge })} />}
    </FormDialog>
  );
}

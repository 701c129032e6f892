// Starting a run: an agent, which of its checkpoints answers (its history; by default the agent as
// it is now), a dataset, the metrics, tags. The server answers at once with the run queued; the run's
// page then follows it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { Button, TextField } from '../../../ui/Fields';
import { FormDialog } from '../../../ui/FormDialog';
import { SelectField } from '../../../ui/SelectField';
import { ChoiceGroup } from '../../agents/ChoiceGroup';
import { agentChoicesQuery, checkpointsQuery, datasetChoicesQuery, evaluationKeys, metricsQuery } from '../evaluations-api';
import { formatDate } from '../format';

/** The agent as it is now: its newest history record, which the server picks when none is named. */
const CURRENT = 0;
const MAX_METRICS = 20;

export function NewRunDialog() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [agentId, setAgentId] = useState<number | null>(null);
  const [historyId, setHistoryId] = useState(CURRENT);
  const [datasetId, setDatasetId] = useState<number | null>(null);
  const [metricIds, setMetricIds] = useState<number[]>([]);
  const [tags, setTags] = useState('');
  const agents = useQuery({ ...agentChoicesQuery(), enabled: open });
  const datasets = useQuery({ ...datasetChoicesQuery(), enabled: open });
  const metrics = useQuery({ ...metricsQuery(), enabled: open });
  const checkpoints = useQuery(checkpointsQuery(open ? agentId : null));
  const start = useMutation({
    mutationFn: async () =>
      (
        await unwrap(
          api.POST('/api/v2/evaluations', {
            body: {
              ...(name.trim() === '' ? {} : { name: name.trim() }),
              agent_id: agentId!,
              ...(historyId === CURRENT ? {} : { history_id: historyId }),
              dataset_id: datasetId!,
              metric_ids: metricIds,
              tags: [...new Set(tags.split(',').map((tag) => tag.trim()).filter((tag) => tag !== ''))],
            },
          }),
        )
      ).data,
    onSuccess: async (run) => {
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.runs });
      await navigate(`/evaluations/runs/${run.id}`);
    },
  });
  const loadError = agents.error ?? datasets.error ?? metrics.error ?? checkpoints.error;
  const tooMany = metricIds.length > MAX_METRICS;
  return (
    <FormDialog
      title="New run"
      trigger={<Button variant="primary">New run</Button>}
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) start.reset();
      }}
      submitLabel="Start run"
      pendingLabel="Starting…"
      isPending={start.isPending}
      canSubmit={agentId !== null && datasetId !== null && metricIds.length > 0 && !tooMany}
      error={start.error ?? loadError}
      onSubmit={() => start.mutate()}
    >
      <TextField label="Name" value={name} onChange={setName} maxLength={200} description="Leave empty for the agent’s and dataset’s names." autoFocus />
      <SelectField
        label="Agent"
        options={(agents.data ?? []).map((agent) => ({ id: agent.id, label: agent.name, detail: agent.status }))}
        value={agentId}
        onChange={(id) => {
          setAgentId(id);
          setHistoryId(CURRENT);
        }}
        placeholder={agents.isPending ? 'Loading…' : 'Choose an agent'}
      />
      <SelectField
        label="Checkpoint"
        options={[
          { id: CURRENT, label: 'As it is now' },
          ...(checkpoints.data ?? []).map((record) => ({
            id: record.history_id,
            label: `${record.checkpoint_name || `Version ${record.version}`}`,
            detail: `${record.kind} · ${formatDate(record.created_on)} · ${record.created_by}`,
          })),
        ]}
        value={historyId}
        onChange={setHistoryId}
        isDisabled={agentId === null}
        description="A record of the agent’s history answers as it was then, without being restored."
      />
      <SelectField
        label="Dataset"
        options={(datasets.data ?? []).map((dataset) => ({ id: dataset.id, label: dataset.name, detail: `${dataset.query_count} ${dataset.query_count === 1 ? 'query' : 'queries'}` }))}
        value={datasetId}
        onChange={setDatasetId}
        placeholder={datasets.isPending ? 'Loading…' : 'Choose a dataset'}
      />
      <ChoiceGroup
        label="Metrics"
        items={(metrics.data ?? []).filter((metric) => metric.available).map((metric) => ({ id: metric.id, label: metric.name, detail: metric.builtin ? 'Built-in' : 'Your organization’s' }))}
        selected={metricIds}
        onChange={setMetricIds}
        emptyText={metrics.isPending ? 'Loading…' : 'No metric is available.'}
        errorMessage={tooMany ? `At most ${MAX_METRICS} metrics a run.` : undefined}
      />
      <TextField label="Tags" value={tags} onChange={setTags} description="Separated by commas (before-release, shorter-prompt)." />
    </FormDialog>
  );
}

// Two records of an agent's history side by side (/agents/:agentId/history/compare?from=&to=): the
// instructions as a text difference, every other setting as "field: before → after". Either record
// can be restored from here; the history page then says so.
import { useNavigate, useSearchParams, Link } from 'react-router';
import { Button } from '../../ui/Fields';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { AgentLinks } from './AgentLinks';
import { ComparisonDetails } from './ComparisonDetails';
import { formatWhen, useAgent, useHistoryPage, useHistoryRecord, type HistoryRecord } from './history-api';
import { useAgentIdParam } from './useHistoryAccess';
import './history.css';

// The choices offered: the newest records, as many as one page of the API holds.
const CHOICES_PAGE_SIZE = 100;

function recordOption(record: HistoryRecord): SelectOption<number> {
  return { id: record.history_id, label: `#${record.history_id} ${record.checkpoint_name} (v${record.version}, ${formatWhen(record.created_on)})` };
}

function idParam(params: URLSearchParams, name: string): number | undefined {
  const id = Number(params.get(name));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export default function ComparePage() {
  const agentId = useAgentIdParam();
  if (agentId === undefined) {
    return (
      <>
        <PageHeader title="Compare records" />
        <ErrorNote error={new Error('This address names no agent.')} />
      </>
    );
  }
  return <Comparison key={agentId} agentId={agentId} />;
}

function Comparison({ agentId }: { agentId: number }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const fromId = idParam(params, 'from');
  const toId = idParam(params, 'to');
  const agent = useAgent(agentId);
  const choices = useHistoryPage(agentId, 1, CHOICES_PAGE_SIZE);
  const from = useHistoryRecord(agentId, fromId);
  const to = useHistoryRecord(agentId, toId);

  // A record older than the newest hundred, reached through a link, is still offered.
  const records: HistoryRecord[] = [...(choices.data?.items ?? [])];
  for (const detail of [from.data, to.data]) {
    if (detail !== undefined && !records.some((record) => record.history_id === detail.history_id)) records.push(detail);
  }
  const options = records.map(recordOption);
  const newestId = choices.data?.items[0]?.history_id;

  const choose = (side: 'from' | 'to', historyId: number) => {
    const next = new URLSearchParams(params);
    next.set(side, String(historyId));
    setParams(next, { replace: true });
  };
  const swap = () => {
    if (fromId === undefined || toId === undefined) return;
    setParams({ from: String(toId), to: String(fromId) }, { replace: true });
  };

  return (
    <div className="history-page">
      <PageHeader
        title="Compare records"
        description={agent.data === undefined ? 'Two records of the agent’s history.' : `Two records of the history of ${agent.data.name}.`}
      >
        <Link className="button" to={`/agents/${agentId}/history`}>
          History
        </Link>
        <AgentLinks agentId={agentId} />
      </PageHeader>

      <ErrorNote error={agent.error} title="The agent could not be read." />
      <ErrorNote error={choices.error} title="The history could not be read." />
      <div className="compare-choices">
        <SelectField label="From" options={options} value={fromId ?? null} onChange={(id) => choose('from', id)} placeholder="Choose a record" />
        <Button onPress={swap} isDisabled={fromId === undefined || toId === undefined} aria-label="Swap from and to">
          <span aria-hidden="true">⇄</span> Swap
        </Button>
        <SelectField label="To" options={options} value={toId ?? null} onChange={(id) => choose('to', id)} placeholder="Choose a record" />
      </div>

      <ErrorNote error={from.error} title={`Record #${fromId ?? ''} could not be read.`} />
      <ErrorNote error={to.error} title={`Record #${toId ?? ''} could not be read.`} />
      {(fromId === undefined || toId === undefined) && <p className="muted">Choose two records to compare.</p>}
      {((fromId !== undefined && from.isPending) || (toId !== undefined && to.isPending)) && <Loading label="Loading the records…" />}
      {from.data !== undefined && to.data !== undefined && (
        <ComparisonDetails
          agentId={agentId}
          from={from.data}
          to={to.data}
          newestId={newestId}
          onRestored={(notice) => void navigate(`/agents/${agentId}/history`, { state: { notice } })}
        />
      )}
    </div>
  );
}

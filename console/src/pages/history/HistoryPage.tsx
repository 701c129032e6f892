// An agent's history (/agents/:agentId/history): every record newest first, paged as the API pages
// it (?page= in the address, so Back returns to the same page), with checkpoints, comparisons and
// restores. A restore refreshes the list; its record then shows on top of page 1.
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Empty, ErrorNote, Loading, SuccessNote } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { AgentLinks } from './AgentLinks';
import { CompareBar } from './CompareBar';
import { HISTORY_PAGE_SIZE, useAgent, useHistoryPage, type HistoryRecord } from './history-api';
import { HistoryTable } from './HistoryTable';
import { SaveCheckpointDialog } from './SaveCheckpointDialog';
import { useAgentIdParam, useChangeRefusal } from './useHistoryAccess';
import { useRecordChanges } from './useRecordChanges';
import { restoredNotice, useRestoreCheckpoint } from './useRestoreCheckpoint';
import './history.css';

export default function HistoryPage() {
  const agentId = useAgentIdParam();
  if (agentId === undefined) {
    return (
      <>
        <PageHeader title="History" />
        <ErrorNote error={new Error('This address names no agent.')} />
      </>
    );
  }
  return <AgentHistory key={agentId} agentId={agentId} />;
}

/** A notice handed over by another page through navigation state (the comparison's restore). */
function noticeFromState(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'notice' in state && typeof state.notice === 'string') return state.notice;
  return undefined;
}

function pageFromParams(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

function AgentHistory({ agentId }: { agentId: number }) {
  const [params, setParams] = useSearchParams();
  const page = pageFromParams(params);
  const location = useLocation();
  const agent = useAgent(agentId);
  const history = useHistoryPage(agentId, page);
  const refusal = useChangeRefusal(agentId);
  const reasonId = useId();
  const restore = useRestoreCheckpoint(agentId);
  const [notice, setNotice] = useState<string | undefined>(() => noticeFromState(location.state));
  const navigate = useNavigate();
  const handedNotice = noticeFromState(location.state) !== undefined;
  useEffect(() => {
    // Shown once: a reload or a return through Back must not say it again.
    if (handedNotice) void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [handedNotice, navigate, location.pathname, location.search]);
  const [selected, setSelected] = useState<HistoryRecord[]>([]);

  const records = history.data?.items ?? [];
  const changes = useRecordChanges(agentId, records, { page, pageSize: HISTORY_PAGE_SIZE, total: history.data?.total ?? 0 });
  const currentId = page === 1 ? records[0]?.history_id : undefined;
  const disabledReasonId = refusal.reason === undefined ? undefined : reasonId;

  const toggleSelected = (record: HistoryRecord, isSelected: boolean) => {
    setSelected((previous) => {
      const others = previous.filter((entry) => entry.history_id !== record.history_id);
      // Picking a third record lets go of the first one picked: a comparison is of two.
      return isSelected ? [...others, record].slice(-2) : others;
    });
  };

  const restoreTo = async (record: HistoryRecord, note: string) => {
    setNotice(undefined);
    try {
      const result = await restore.mutateAsync({ historyId: record.history_id, note });
      setNotice(restoredNotice(result));
      setParams({});
    } catch {
      // restore.error is shown above the table.
    }
  };

  return (
    <div className="history-page">
      <PageHeader
        title={agent.data === undefined ? 'History' : `History of ${agent.data.name}`}
        description="Every change to the agent’s configuration, newest first. Restoring a record adds a new one; nothing is ever deleted."
      >
        <AgentLinks agentId={agentId} />
        <SaveCheckpointDialog
          agentId={agentId}
          disabledReasonId={disabledReasonId}
          onSaved={(name) => {
            setNotice(`Checkpoint “${name}” saved.`);
            setParams({});
          }}
        />
      </PageHeader>

      <ErrorNote error={agent.error} title="The agent could not be read." />
      <ErrorNote error={restore.error} title="The restore failed." />
      {notice !== undefined && <SuccessNote>{notice}</SuccessNote>}
      {refusal.reason !== undefined && (
        <p id={reasonId} className="note note-info">
          {refusal.known ? `You cannot restore or save checkpoints. ${refusal.reason}` : refusal.reason}
        </p>
      )}

      <CompareBar agentId={agentId} selected={selected} onClear={() => setSelected([])} />

      {history.isPending && <Loading label="Loading the history…" />}
      <ErrorNote error={history.error} title="The history could not be read." />
      {history.data !== undefined && records.length === 0 && <Empty>No records on this page.</Empty>}
      {records.length > 0 && (
        <HistoryTable
          records={records}
          changes={changes}
          currentId={currentId}
          selectedIds={selected.map((record) => record.history_id)}
          onToggleSelected={toggleSelected}
          restoreDisabledReasonId={disabledReasonId}
          restoringId={restore.isPending ? restore.variables.historyId : undefined}
          onRestore={restoreTo}
        />
      )}
      {history.data !== undefined && (
        <Pager
          page={page}
          pageSize={HISTORY_PAGE_SIZE}
          total={history.data.total}
          nouns={['record', 'records']}
          label="History pages"
          previousLabel="Newer"
          nextLabel="Older"
          onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })}
        />
      )}
    </div>
  );
}

// /logs: the responses across threads the caller may read, filtered by agent, user, vote and days
// (all in the address), paged, newest first; a question opens its thread; "Export CSV" downloads the
// API's own CSV of the same filters.
import { useQuery } from '@tanstack/react-query';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { csvAddress, DEFAULT_DAYS, logQueryOf, useLogView } from './logParams';
import { chatLogQuery } from './logQueries';
import { LogFilters } from './LogFilters';
import { LogTable } from './LogTable';

const PAGE_SIZE = 25;

export default function ChatLogsPage() {
  const { view, change } = useLogView();
  const query = logQueryOf(view);
  const log = useQuery(chatLogQuery(query));
  const rows = log.data ?? [];
  const shown = rows.slice((view.page - 1) * PAGE_SIZE, view.page * PAGE_SIZE);
  return (
    <div className="logs-page">
      <PageHeader title="Chat logs" description={`Every question and answer you may read, newest first; the last ${DEFAULT_DAYS} days unless days are chosen.`}>
        {/* A plain link: the browser sends the session cookie and saves the server's attachment as it streams. */}
        <a className="button button-secondary" href={csvAddress(query)} download>
          Export CSV
        </a>
      </PageHeader>
      <LogFilters view={view} onChange={change} />
      {log.isPending && <Loading label="Loading the chat log…" />}
      <ErrorNote error={log.error} />
      {log.data !== undefined && rows.length === 0 && <Empty>No responses match these filters.</Empty>}
      {shown.length > 0 && <LogTable rows={shown} />}
      {log.data !== undefined && rows.length > 0 && (
        <Pager page={view.page} pageSize={PAGE_SIZE} total={rows.length} nouns={['response', 'responses']} onPage={(page) => change({ ...view, page })} />
      )}
    </div>
  );
}

// /logs/threads/:threadId: one thread read as a log, oldest first: each question, its answer with the
// passages it cites, and what it took (status, model, tokens, cost, time) and what people said of it.
// Read-only: asking again is the chat's work.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { NotFoundPage } from '../NotFoundPage';
import { ThreadExchange } from './ThreadExchange';
import { THREAD_PAGE_SIZE, threadQuery, threadResponsesQuery } from './logQueries';

export default function ThreadLogPage() {
  const threadId = Number(useParams().threadId);
  if (!Number.isInteger(threadId) || threadId <= 0) return <NotFoundPage />;
  return <ThreadLog threadId={threadId} />;
}

function ThreadLog({ threadId }: { threadId: number }) {
  const location = useLocation();
  const back = (location.state as { back?: string } | null)?.back ?? '';
  const [page, setPage] = useState(1);
  const thread = useQuery(threadQuery(threadId));
  const responses = useQuery(threadResponsesQuery(threadId, page));

  // A row of the log links to its response (#response-12): shown once the thread is drawn.
  useEffect(() => {
    if (responses.data === undefined || location.hash === '') return;
    document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [responses.data, location.hash]);

  return (
    <div className="thread-log-page">
      <p className="back-link">
        <Link to={`/logs${back}`}>← Chat logs</Link>
      </p>
      <PageHeader
        title={thread.data === undefined ? 'Thread' : `Thread: ${thread.data.title}`}
        description={thread.data === undefined ? undefined : `${thread.data.response_count} ${thread.data.response_count === 1 ? 'response' : 'responses'}, started ${new Date(thread.data.created_on).toLocaleString('en-GB')} by ${thread.data.created_by}`}
      />
      {(thread.isPending || responses.isPending) && <Loading label="Loading the thread…" />}
      <ErrorNote error={thread.error ?? responses.error} />
      {responses.data !== undefined && (
        <>
          <ol className="thread-log">
            {responses.data.items.map((response, index) => (
              <ThreadExchange key={response.id} response={response} position={(page - 1) * THREAD_PAGE_SIZE + index + 1} />
            ))}
          </ol>
          <Pager page={page} pageSize={THREAD_PAGE_SIZE} total={responses.data.total} nouns={['response', 'responses']} onPage={setPage} />
        </>
      )}
    </div>
  );
}

// A page of the chat log: one row per response, newest first; the question opens its thread.
import { Link, useLocation } from 'react-router';
import { formatUsd } from '../analytics/figures';
import type { ChatLogRow } from './logQueries';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const STATUS_LABELS = { completed: 'Answered', blocked: 'Blocked', failed: 'Failed' } as const;
const QUESTION_CHARS = 120;

const shortened = (text: string) => (text.length > QUESTION_CHARS ? `${text.slice(0, QUESTION_CHARS - 1)}…` : text);

export function LogTable({ rows }: { rows: ChatLogRow[] }) {
  const location = useLocation();
  return (
    <div className="table-wrap">
      <table className="plain log-table">
        <caption className="visually-hidden">Chat log, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Agent</th>
            <th scope="col">User</th>
            <th scope="col">Asked</th>
            <th scope="col">Status</th>
            <th scope="col">Votes</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.response_id}>
              <td className="log-question">
                {/* The list's address goes with the link, so the thread's "Back" returns to these rows. */}
                <Link to={`/logs/threads/${row.thread_id}#response-${row.response_id}`} state={{ back: location.search }}>
                  {shortened(row.query) || '(empty question)'}
                </Link>
              </td>
              <td>{row.agent_name}</td>
              <td className="log-user">{row.user_email}</td>
              <td className="log-when">{when.format(new Date(row.created_on))}</td>
              <td>{STATUS_LABELS[row.status]}</td>
              <td className="log-votes">
                <span aria-label={`${row.up_votes} up`}>▲ {row.up_votes}</span> <span aria-label={`${row.down_votes} down`}>▼ {row.down_votes}</span>
              </td>
              <td className="log-cost">{row.cost === null ? 'unknown' : formatUsd(row.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// One question of a thread and its answer, read-only: the answer's text as given, the passages it
// cites (numbered as the answer numbers them), what the answer took and what people said of it.
import type { Schemas } from '../../api/client';
import { formatCount, formatUsd } from '../analytics/figures';

type AgentResponse = Schemas['AgentResponse'];

const STATUS_LABELS = { completed: 'Answered', blocked: 'Blocked by a guardrail', failed: 'Failed' } as const;
const PASSAGE_CHARS = 400;

export function ThreadExchange({ response, position }: { response: AgentResponse; position: number }) {
  const feedback = response.feedback;
  const headingId = `response-${response.id}-question`;
  return (
    <li className="card thread-exchange" id={`response-${response.id}`}>
      <article aria-labelledby={headingId}>
        <h2 id={headingId} className="exchange-question">
          <span className="visually-hidden">Question {position}: </span>
          {response.query}
        </h2>
        <p className="exchange-answer">{response.answer}</p>
        {response.error !== null && <p className="note note-error">{response.error}</p>}
        <dl className="exchange-meta">
          <div>
            <dt>Status</dt>
            <dd>{STATUS_LABELS[response.status]}</dd>
          </div>
          <div>
            <dt>Asked</dt>
            <dd>
              {new Date(response.created_on).toLocaleString('en-GB')} by {response.created_by}
            </dd>
          </div>
          <div>
            <dt>Model</dt>
            <dd>{response.model}</dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd>
              {formatCount(response.tokens.prompt)} + {formatCount(response.tokens.completion)}
              {response.tokens.estimated ? ' (estimated)' : ''}
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{response.cost === null ? 'unknown' : formatUsd(response.cost)}</dd>
          </div>
          <div>
            <dt>Time</dt>
            <dd>{formatCount(response.latency_ms)} ms</dd>
          </div>
          {feedback !== undefined && (
            <div>
              <dt>Votes</dt>
              <dd>
                {feedback.up} up, {feedback.down} down
                {feedback.average_rating === null ? '' : `, rated ${feedback.average_rating.toFixed(1)} (${feedback.ratings})`}
              </dd>
            </div>
          )}
        </dl>
        {response.citations.length > 0 && (
          <section className="exchange-citations" aria-label={`Sources of answer ${position}`}>
            <h3>Sources</h3>
            <ol>
              {response.citations.map((citation) => (
                <li key={`${citation.number}-${citation.document_id}`} value={citation.number}>
                  <strong>{citation.source}</strong>
                  {citation.page === null ? '' : `, page ${citation.page}`} <span className="muted">(score {citation.score.toFixed(2)})</span>
                  <blockquote>{citation.passage.length > PASSAGE_CHARS ? `${citation.passage.slice(0, PASSAGE_CHARS - 1)}…` : citation.passage}</blockquote>
                </li>
              ))}
            </ol>
          </section>
        )}
      </article>
    </li>
  );
}

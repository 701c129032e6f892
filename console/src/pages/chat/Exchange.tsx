// One question and its answer, as stored (a thread's history) or as it is being written (an answer
// streaming in). Both are drawn by ExchangeView; the stored one is memoized so that a thread's past
// answers are not drawn again while a new one streams.
import { memo, type ReactNode, useMemo, useSyncExternalStore } from 'react';
import { ErrorNote } from '../../ui/Feedback';
import { AnswerFeedback } from './AnswerFeedback';
import { GuardrailMark, ToolCallMark } from './AnswerMarks';
import { AnswerMeta } from './AnswerMeta';
import { AnswerText, citationsByNumber, type CitationsByNumber } from './AnswerText';
import type { AgentResponse } from './responseTypes';
import type { AnswerMark, AskRun } from './askRun';
import { useFollowAnswer } from './useFollowAnswer';

type AnswerState = 'waiting' | 'streaming' | 'completed' | 'blocked' | 'stopped' | 'failed';

interface ExchangeViewProps {
  query: string;
  text: string;
  citations: CitationsByNumber;
  marks: readonly AnswerMark[];
  state: AnswerState;
  error?: unknown;
  response?: AgentResponse;
}

/** The answer's text cut where its tool calls and guardrail actions happened, each shown in its place. */
function AnswerContent({ text, marks, citations }: { text: string; marks: readonly AnswerMark[]; citations: CitationsByNumber }) {
  if (marks.length === 0) return <AnswerText text={text} citations={citations} />;
  const parts: ReactNode[] = [];
  let from = 0;
  marks.forEach((mark, index) => {
    const at = Math.min(Math.max(mark.at, from), text.length);
    if (at > from) parts.push(<AnswerText key={`text-${index}`} text={text.slice(from, at)} citations={citations} />);
    parts.push(mark.kind === 'tool_call' ? <ToolCallMark key={`mark-${index}`} call={mark.call} /> : <GuardrailMark key={`mark-${index}`} action={mark.action} />);
    from = at;
  });
  parts.push(<AnswerText key="text-rest" text={text.slice(from)} citations={citations} />);
  return <>{parts}</>;
}

function ExchangeView({ query, text, citations, marks, state, error, response }: ExchangeViewProps) {
  const writing = state === 'waiting' || state === 'streaming';
  return (
    <article className="exchange">
      <div className="question">
        <span className="visually-hidden">You asked: </span>
        {query}
      </div>
      <div className={`answer answer-${state}`} aria-busy={writing}>
        <span className="visually-hidden">Answer: </span>
        <div className="answer-text">
          <AnswerContent text={text} marks={marks} citations={citations} />
        </div>
        {writing && text === '' && <p className="muted answer-waiting">Waiting for the answer…</p>}
        {state === 'stopped' && (
          <p className="answer-state">
            <span className="badge badge-warning">Stopped</span> <span className="muted">Stopped before its end; what had arrived is kept.</span>
          </p>
        )}
        {state === 'blocked' && (
          <div className="note note-error" role="alert">
            <strong>No answer. </strong>
            {response?.error ?? 'A guardrail stopped this answer.'}
          </div>
        )}
        {state === 'failed' && <ErrorNote error={error ?? 'The answer failed.'} title="No answer." />}
        {response !== undefined && <AnswerMeta response={response} />}
        {response !== undefined && state === 'completed' && <AnswerFeedback responseId={response.id} initial={response.feedback} />}
      </div>
    </article>
  );
}

/** Where a stored answer's tool calls and guardrails go: the text's place of each is not kept, so before it, or after it for the answer's own guardrails. */
function storedMarks(response: AgentResponse): AnswerMark[] {
  const end = response.answer.length;
  return [
    ...response.guardrail_actions.filter((action) => action.stage !== 'output').map((action): AnswerMark => ({ at: 0, kind: 'guardrail', action })),
    ...response.tool_calls.map((call): AnswerMark => ({ at: 0, kind: 'tool_call', call })),
    ...response.guardrail_actions.filter((action) => action.stage === 'output').map((action): AnswerMark => ({ at: end, kind: 'guardrail', action })),
  ];
}

/**
 * The server records an answer its asker stopped as failed with this error (docs/runtime.md, "A
 * client that goes away"); it has no code of its own, so the message is what tells it apart.
 */
const STOPPED_BY_CLIENT = 'cancelled by the client';

export const StoredExchange = memo(function StoredExchange({ response }: { response: AgentResponse }) {
  const citations = useMemo(() => citationsByNumber(response.citations), [response.citations]);
  const marks = useMemo(() => storedMarks(response), [response]);
  const state: AnswerState = response.status === 'failed' && response.error === STOPPED_BY_CLIENT ? 'stopped' : response.status;
  return (
    <ExchangeView
      query={response.query}
      text={response.answer}
      citations={citations}
      marks={marks}
      state={state}
      error={response.error}
      response={response}
    />
  );
});

/** An answer being written: only this re-renders as its deltas arrive (at most once a frame). */
export const LiveExchange = memo(function LiveExchange({ run }: { run: AskRun }) {
  const snapshot = useSyncExternalStore(run.subscribe, run.getSnapshot);
  // The passages streamed before the answer hold every number it can cite: the same map to its end, so
  // that completing a long answer does not draw all its text again.
  const streamed = snapshot.citations.length > 0 ? snapshot.citations : (snapshot.response?.citations ?? snapshot.citations);
  const citations = useMemo(() => citationsByNumber(streamed), [streamed]);
  const state: AnswerState =
    snapshot.status === 'sending' ? 'waiting' : snapshot.status === 'completed' ? (snapshot.response?.status ?? 'completed') : snapshot.status;
  useFollowAnswer(run.isActive, snapshot.text);
  return (
    <ExchangeView
      // The question as recorded, once it is: an input guardrail may have redacted it.
      query={snapshot.response?.query ?? snapshot.query}
      text={snapshot.text}
      citations={citations}
      marks={snapshot.marks}
      state={state}
      error={snapshot.error}
      response={snapshot.response}
    />
  );
});

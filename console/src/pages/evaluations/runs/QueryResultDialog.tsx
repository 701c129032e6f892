// One query of a run, opened: the question and what was expected, the answer with the passages it
// cites, and each metric's verdict with its reason (what the judge said, or why there is none).
import { useQuery } from '@tanstack/react-query';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { ErrorNote, Loading } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import type { QueryResult } from '../evaluations-api';
import { Verdict } from './Verdict';

export function QueryResultDialog({ result }: { result: QueryResult }) {
  return (
    <DialogTrigger>
      <Button variant="quiet" className="button-compact" aria-label={`Open result ${result.position}: ${result.question}`}>
        Open
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal wide">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title" level={2}>
                  Query {result.position}
                </Heading>
                <ResultDetails evaluationId={result.evaluation_id} resultId={result.id} />
                <div className="dialog-actions">
                  <Button onPress={close}>Close</Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

function ResultDetails({ evaluationId, resultId }: { evaluationId: number; resultId: number }) {
  // Read on opening, so that a result still pending when the list was read shows as it is now.
  const result = useQuery({
    queryKey: ['evaluations', 'run', evaluationId, 'result', resultId],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/evaluations/{evaluation_id}/query-results/{query_result_id}', { params: { path: { evaluation_id: evaluationId, query_result_id: resultId } } })))
        .data,
  });
  if (result.isPending) return <Loading label="Loading the answer…" />;
  if (result.data === undefined) return <ErrorNote error={result.error} title="The result could not be loaded." />;
  const { question, expected_answer, expected_sources, status, answer, error, citations, scores, latency_ms, tokens, cost } = result.data;
  return (
    <div className="query-result">
      <h3>Question</h3>
      <p className="answer-block">{question}</p>
      <h3>Expected</h3>
      <p>{expected_answer ?? <span className="muted">No expected answer.</span>}</p>
      {expected_sources.length > 0 && <p className="text-small">Sources: {expected_sources.join(', ')}</p>}
      <h3>Answer</h3>
      {status === 'pending' ? (
        <p className="muted">Not answered yet.</p>
      ) : (
        <>
          {answer !== null && <p className="answer-block">{answer}</p>}
          {error !== null && <p className="note note-error">{error}</p>}
          <p className="muted text-small">
            {status === 'blocked' ? 'Blocked by a guardrail. ' : status === 'failed' ? 'The agent failed. ' : ''}
            {latency_ms !== null && `${latency_ms} ms · `}
            {tokens.total} tokens{cost !== null && ` · $${cost.toFixed(6)}`}
          </p>
        </>
      )}
      <h3>Citations</h3>
      {citations.length === 0 ? (
        <p className="muted">The answer cites no passage.</p>
      ) : (
        <ol className="citations">
          {citations.map((citation) => (
            <li key={`${citation.number}-${citation.document_id}`}>
              <strong>{citation.source}</strong>
              {citation.page !== null && ` (page ${citation.page})`}: <span className="text-small">{citation.passage}</span>
            </li>
          ))}
        </ol>
      )}
      <h3>Verdicts</h3>
      <div className="table-wrap">
        <table className="plain cards">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Verdict</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {scores.map((score) => (
              <tr key={score.metric_id}>
                <th scope="row">{score.name}</th>
                <td data-label="Verdict">
                  <Verdict score={score} />
                </td>
                <td data-label="Why" className="cell-text">
                  {score.reason ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

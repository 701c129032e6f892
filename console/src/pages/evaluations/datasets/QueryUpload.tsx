// Adding queries from a file: a CSV or JSON file chosen, what was read shown before it is sent (each
// row with its line), then sent as it is. The server adds all or nothing; what it refuses is shown
// beside the rows it names, with its message, and nothing was added.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { ApiError } from '../../../api/errors';
import { ErrorNote, SuccessNote } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import { addQueriesCsv, addQueriesJson, evaluationKeys } from '../evaluations-api';
import { positionOfProblem, readQueriesFile, type ReadFile } from './read-queries-file';

/** Rows shown of a large file (the refused ones always are). */
const SHOWN_ROWS = 20;

interface Chosen {
  name: string;
  read: ReadFile;
}

export function QueryUpload({ datasetId }: { datasetId: number }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const send = useMutation({
    mutationFn: async (file: Chosen) => {
      if (file.read.format === 'csv') return addQueriesCsv(datasetId, file.read.text);
      if (file.read.format === 'json') return addQueriesJson(datasetId, file.read.queries);
      throw new Error(file.read.reason);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: evaluationKeys.dataset(datasetId) }),
  });

  async function choose(files: FileList | null) {
    const file = files?.[0];
    if (file === undefined) return;
    send.reset();
    setChosen({ name: file.name, read: readQueriesFile(file.name, await file.text()) });
  }

  const refusals = refusalsOf(send.error);
  return (
    <section className="evaluations-section" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Add queries from a file</h2>
      <p className="muted text-small">
        A CSV file with a header line naming its columns: <code>question</code> (required), <code>expected_answer</code>, <code>expected_sources</code> and{' '}
        <code>tags</code> (lists separated by <code>|</code>; a source of digits is a document id, any other a file name). Or a JSON file: an array of{' '}
        <code>{'{ question, expected_answer, expected_sources, tags }'}</code>. All or nothing: one refused row adds none.
      </p>
      <div className="file-pick">
        <FileTrigger acceptedFileTypes={['.csv', 'text/csv', '.json', 'application/json']} onSelect={(files) => void choose(files)}>
          <Button>Choose a CSV or JSON file</Button>
        </FileTrigger>
        {chosen !== null && <span className="muted">{chosen.name}</span>}
      </div>
      {chosen !== null && chosen.read.format === 'unreadable' && <ErrorNote error={new Error(chosen.read.reason)} title="The file cannot be read." />}
      {chosen !== null && chosen.read.format !== 'unreadable' && (
        <div className="upload-preview">
          <p>
            Read {chosen.read.rows.length} {chosen.read.rows.length === 1 ? 'query' : 'queries'} from {chosen.name}
            {chosen.read.format === 'csv' ? ` (columns: ${chosen.read.columns.join(', ')})` : ''}.
          </p>
          <PreviewTable read={chosen.read} refusals={refusals.byPosition} />
          {send.isSuccess && (
            <SuccessNote>
              Added {send.data.added} {send.data.added === 1 ? 'query' : 'queries'}.
            </SuccessNote>
          )}
          {refusals.count > 0 && (
            <div className="note note-error" role="alert">
              <strong>Nothing was added.</strong> {refusals.message} Fix the file and choose it again.
              <ul className="upload-problems">
                {refusals.messages.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            </div>
          )}
          {refusals.count === 0 && <ErrorNote error={send.error} title="The queries could not be added." />}
          {!send.isSuccess && (
            <Button variant="primary" isDisabled={send.isPending || chosen.read.rows.length === 0} onPress={() => send.mutate(chosen)}>
              {send.isPending ? 'Adding…' : `Add ${chosen.read.rows.length} ${chosen.read.rows.length === 1 ? 'query' : 'queries'}`}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

/** The server's 400 report: its messages, and those about a row by the row's position. */
function refusalsOf(error: unknown) {
  const byPosition = new Map<number, string[]>();
  if (!(error instanceof ApiError) || error.status !== 400 || error.details.length === 0) return { byPosition, messages: [], count: 0, message: '' };
  for (const detail of error.details) {
    const position = positionOfProblem(detail.pointer);
    if (position !== undefined) byPosition.set(position, [...(byPosition.get(position) ?? []), detail.message]);
  }
  const messages = error.details.map((detail) => (detail.pointer.startsWith('/body/queries/') ? `Query ${positionOfProblem(detail.pointer)}: ${detail.pointer.replace(/^\/body\/queries\/\d+\/?/, '')} ${detail.message}` : detail.message));
  return { byPosition, messages, count: messages.length, message: error.message };
}

function PreviewTable({ read, refusals }: { read: Exclude<ReadFile, { format: 'unreadable' }>; refusals: Map<number, string[]> }) {
  const rows = read.rows.filter((row, index) => index < SHOWN_ROWS || refusals.has(row.position));
  return (
    <div className="table-wrap">
      <table className="plain cards">
        <caption className="visually-hidden">What the file holds</caption>
        <thead>
          <tr>
            <th scope="col">{read.format === 'csv' ? 'Line' : 'Item'}</th>
            <th scope="col">Question</th>
            <th scope="col">Expected answer</th>
            <th scope="col">Expected sources</th>
            <th scope="col">Tags</th>
            <th scope="col">Check</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const refused = refusals.get(row.position);
            return (
              <tr key={row.position}>
                <td data-label={read.format === 'csv' ? 'Line' : 'Item'}>{row.position}</td>
                <td data-label="Question" className="cell-text">
                  {row.question || <span className="muted">(empty)</span>}
                </td>
                <td data-label="Expected answer" className="cell-text">
                  {row.expected_answer}
                </td>
                <td data-label="Expected sources" className="cell-text">
                  {row.expected_sources}
                </td>
                <td data-label="Tags">{row.tags}</td>
                <td data-label="Check">{refused === undefined ? <span className="muted">Read</span> : <span className="badge badge-danger">Refused: {refused.join('; ')}</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {read.rows.length > rows.length && <p className="muted text-small">…and {read.rows.length - rows.length} more.</p>}
    </div>
  );
}

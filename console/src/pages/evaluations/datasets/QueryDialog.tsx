// Adding one query by hand, or changing one: the question, what a good answer says, the documents it
// draws on (one a line: a document id, or a file name), tags.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { Button, TextField } from '../../../ui/Fields';
import { FormDialog } from '../../../ui/FormDialog';
import { addQueriesJson, evaluationKeys, type DatasetQuery } from '../evaluations-api';

const sourcesText = (sources: readonly (number | string)[]) => sources.map(String).join('\n');

/** Each line a source: digits are a document id, anything else a source name. */
function sourcesOf(text: string): (number | string)[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => (/^\d+$/.test(line) ? Number(line) : line));
}

const tagsOf = (text: string) => [...new Set(text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== ''))];

export function QueryDialog({ datasetId, query }: { datasetId: number; query?: DatasetQuery }) {
  const queryClient = useQueryClient();
  const [question, setQuestion] = useState('');
  const [expected, setExpected] = useState('');
  const [sources, setSources] = useState('');
  const [tags, setTags] = useState('');
  const [open, setOpen] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const body = { question: question.trim(), expected_answer: expected.trim() === '' ? null : expected.trim(), expected_sources: sourcesOf(sources), tags: tagsOf(tags) };
      if (query === undefined) return addQueriesJson(datasetId, [body]);
      return unwrap(api.PUT('/api/v2/datasets/{dataset_id}/queries/{query_id}', { params: { path: { dataset_id: datasetId, query_id: query.id } }, body }));
    },
    onSuccess: async () => {
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.dataset(datasetId) });
    },
  });
  const reset = () => {
    setQuestion(query?.question ?? '');
    setExpected(query?.expected_answer ?? '');
    setSources(sourcesText(query?.expected_sources ?? []));
    setTags((query?.tags ?? []).join(', '));
  };
  return (
    <FormDialog
      title={query === undefined ? 'New query' : 'Edit query'}
      trigger={
        query === undefined ? (
          <Button>Add a query</Button>
        ) : (
          <Button variant="quiet" className="button-compact" aria-label={`Edit query: ${query.question}`}>
            Edit
          </Button>
        )
      }
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) reset();
        else save.reset();
      }}
      submitLabel={query === undefined ? 'Add query' : 'Save query'}
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit={question.trim() !== ''}
      error={save.error}
      onSubmit={() => save.mutate()}
    >
      <TextField label="Question" value={question} onChange={setQuestion} isRequired multiline rows={3} maxLength={20_000} autoFocus />
      <TextField label="Expected answer" value={expected} onChange={setExpected} multiline rows={3} maxLength={20_000} description="What a good answer says; leave empty for none." />
      <TextField label="Expected sources" value={sources} onChange={setSources} multiline rows={2} description="One a line: a document id, or a file name (handbook.md)." />
      <TextField label="Tags" value={tags} onChange={setTags} description="Separated by commas." />
    </FormDialog>
  );
}

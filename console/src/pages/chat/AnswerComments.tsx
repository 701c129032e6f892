// Comments on an answer, oldest first, read when opened; anyone who sees the answer may add one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button as AriaButton, Disclosure, DisclosurePanel, Form } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { chatKeys } from './chatQueries';

/** The first hundred comments, and how many there are. */
async function fetchComments(responseId: number) {
  return (await unwrap(api.GET('/api/v2/responses/{response_id}/comments', { params: { path: { response_id: responseId }, query: { page_size: 100 } } }))).data;
}

export function AnswerComments({ responseId, count }: { responseId: number; count: number }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const queryClient = useQueryClient();
  const comments = useQuery({ queryKey: chatKeys.comments(responseId), queryFn: () => fetchComments(responseId), enabled: open });
  const add = useMutation({
    mutationFn: async (body: string) =>
      (await unwrap(api.POST('/api/v2/responses/{response_id}/comments', { params: { path: { response_id: responseId } }, body: { text: body } }))).data,
    onSuccess: async () => {
      setText('');
      await queryClient.invalidateQueries({ queryKey: chatKeys.comments(responseId) });
    },
  });
  const shown = comments.data?.total ?? count;

  return (
    <Disclosure className="answer-mark answer-comments" isExpanded={open} onExpandedChange={setOpen}>
      <AriaButton slot="trigger" className="answer-mark-trigger">
        <span aria-hidden="true" className="answer-mark-chevron">
          ›
        </span>
        Comments ({shown})
      </AriaButton>
      <DisclosurePanel className="answer-mark-panel">
        {comments.isPending && open && <Loading label="Loading comments…" />}
        <ErrorNote error={comments.error} />
        {comments.data !== undefined && comments.data.items.length > 0 && (
          <ul className="comment-list">
            {comments.data.items.map((comment) => (
              <li key={comment.id}>
                <p className="comment-text">{comment.text}</p>
                <p className="muted comment-by">
                  {comment.created_by}, {new Date(comment.created_on).toLocaleString()}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Form
          className="form comment-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() !== '') add.mutate(text);
          }}
        >
          <TextField label="Comment" multiline rows={2} value={text} onChange={setText} maxLength={10_000} />
          <ErrorNote error={add.error} title="The comment was not saved." />
          <div className="actions">
            <Button type="submit" isDisabled={add.isPending || text.trim() === ''}>
              {add.isPending ? 'Adding…' : 'Add comment'}
            </Button>
          </div>
        </Form>
      </DisclosurePanel>
    </Disclosure>
  );
}

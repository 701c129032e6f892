// Renaming and deleting a thread, each a modal dialog opened from the thread's menu.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { type ChatThread, chatKeys } from './chatQueries';
import { conversationKey, forgetConversation } from './runStore';

export function RenameThreadDialog({ thread, onClose }: { thread: ChatThread | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  useEffect(() => setTitle(thread?.title ?? ''), [thread]);
  const rename = useMutation({
    mutationFn: async ({ id, value }: { id: number; value: string }) =>
      (await unwrap(api.PATCH('/api/v2/threads/{thread_id}', { params: { path: { thread_id: id } }, body: { title: value } }))).data,
    onSuccess: async (renamed) => {
      queryClient.setQueryData(chatKeys.thread(renamed.id), renamed);
      await queryClient.invalidateQueries({ queryKey: chatKeys.threads(renamed.agent_id) });
      onClose();
    },
  });
  const close = () => {
    rename.reset();
    onClose();
  };

  return (
    <FormDialog
      title="Rename thread"
      isOpen={thread !== null}
      onOpenChange={(open) => !open && close()}
      submitLabel="Save"
      pendingLabel="Saving…"
      isPending={rename.isPending}
      canSubmit={thread !== null && title.trim() !== ''}
      error={rename.error}
      errorTitle="The thread was not renamed."
      onSubmit={() => thread !== null && rename.mutate({ id: thread.id, value: title.trim() })}
    >
      <TextField label="Title" value={title} onChange={setTitle} maxLength={200} autoFocus />
    </FormDialog>
  );
}

export function DeleteThreadDialog({ thread, onClose, onDeleted }: { thread: ChatThread | null; onClose: () => void; onDeleted: (thread: ChatThread) => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async (target: ChatThread) => {
      await unwrap(api.DELETE('/api/v2/threads/{thread_id}', { params: { path: { thread_id: target.id } } }));
      return target;
    },
    onSuccess: async (deleted) => {
      forgetConversation(conversationKey(deleted.agent_id, deleted.id));
      // Away from the thread first, so that nothing asks for it again once it is gone.
      onDeleted(deleted);
      onClose();
      queryClient.removeQueries({ queryKey: chatKeys.thread(deleted.id) });
      await queryClient.invalidateQueries({ queryKey: chatKeys.threads(deleted.agent_id) });
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };

  return (
    <ModalOverlay className="modal-overlay" isDismissable isOpen={thread !== null} onOpenChange={(open) => !open && close()}>
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title">Delete this thread?</Heading>
          <div className="dialog-body">
            <p>“{thread?.title}” and its answers leave your threads and the chat logs. Its costs are still counted.</p>
          </div>
          <ErrorNote error={remove.error} title="The thread was not deleted." />
          <div className="dialog-actions">
            <Button onPress={close}>Cancel</Button>
            <Button variant="danger" isDisabled={remove.isPending} onPress={() => thread !== null && remove.mutate(thread)}>
              {remove.isPending ? 'Deleting…' : 'Delete thread'}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

// Files given to a thread (docs/tools-attachments.md): uploaded with their progress, listed, removable.
// The agent reads them through its attachment tool. A file given before the first question opens
// the thread for it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FileTrigger, Label, ProgressBar } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { postWithProgress, type UploadProgress } from '../../api/upload';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { chatKeys, fetchAttachments } from './chatQueries';

const READABLE = ['.pdf', '.docx', '.html', '.htm', '.md', '.txt', '.csv', '.json'];
const kib = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${kib.format(bytes / 1024)} KB`;
  return `${kib.format(bytes / 1024 / 1024)} MB`;
}

interface ThreadFilesProps {
  agentId: number;
  threadId: number | undefined;
  /** Only the thread's owner gives it files. */
  canGive: boolean;
  /** The owner, and the organization's owners and admins, remove them. */
  canRemove: boolean;
  /** A file given before any question opened this thread. */
  onThreadOpened: (threadId: number) => void;
}

export function ThreadFiles({ agentId, threadId, canGive, canRemove, onThreadOpened }: ThreadFilesProps) {
  const queryClient = useQueryClient();
  const files = useQuery({ queryKey: chatKeys.attachments(threadId ?? 0), queryFn: () => fetchAttachments(threadId ?? 0), enabled: threadId !== undefined });
  const [progress, setProgress] = useState<(UploadProgress & { names: string }) | null>(null);

  const upload = useMutation({
    mutationFn: async (chosen: File[]) => {
      const names = chosen.map((file) => file.name).join(', ');
      setProgress({ loaded: 0, total: 0, names });
      let id = threadId;
      if (id === undefined) id = (await unwrap(api.POST('/api/v2/threads', { body: { agent_id: agentId } }))).data.id;
      const form = new FormData();
      for (const file of chosen) form.append('files', file, file.name);
      await postWithProgress(`/api/v2/threads/${id}/attachments`, form, (step) => setProgress({ ...step, names }));
      return id;
    },
    onSettled: () => setProgress(null),
    onSuccess: async (id) => {
      await queryClient.invalidateQueries({ queryKey: chatKeys.attachments(id) });
      if (threadId === undefined) {
        await queryClient.invalidateQueries({ queryKey: chatKeys.threads(agentId) });
        onThreadOpened(id);
      }
    },
  });

  const remove = useMutation({
    mutationFn: async (attachmentId: number) =>
      unwrap(api.DELETE('/api/v2/threads/{thread_id}/attachments/{attachment_id}', { params: { path: { thread_id: threadId ?? 0, attachment_id: attachmentId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.attachments(threadId ?? 0) }),
  });

  const items = files.data ?? [];
  const sent = progress !== null && progress.total > 0 && progress.loaded >= progress.total;
  if (!canGive && items.length === 0) return null;
  return (
    <section className="thread-files" aria-label="Files of this thread">
      {items.length > 0 && (
        <ul className="file-list">
          {items.map((file) => (
            <li key={file.id} className="file-chip">
              <span className="file-name">{file.filename}</span>
              <span className="muted">
                {file.type}, {sizeOf(file.size_bytes)}
              </span>
              {canRemove && (
                <Button variant="quiet" className="icon-button" aria-label={`Remove ${file.filename}`} isDisabled={remove.isPending} onPress={() => remove.mutate(file.id)}>
                  <span aria-hidden="true">×</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {progress !== null && (
        <ProgressBar
          className="thread-upload"
          value={progress.total === 0 ? 0 : (progress.loaded / progress.total) * 100}
          isIndeterminate={progress.total === 0}
        >
          {({ percentage }) => (
            <>
              {/* Once sent, the server reads the files' text before it answers. */}
              <Label>{sent ? `Reading ${progress.names}…` : `Uploading ${progress.names}`}</Label>
              <span className="muted"> {progress.total === 0 || sent ? '' : `${Math.round(percentage ?? 0)}%`}</span>
              <div className="progress-track">
                <div className="progress-fill" style={{ width: `${percentage ?? 0}%` }} />
              </div>
            </>
          )}
        </ProgressBar>
      )}
      {canGive && (
        <FileTrigger allowsMultiple acceptedFileTypes={READABLE} onSelect={(list) => list !== null && list.length > 0 && upload.mutate([...list])}>
          <Button variant="quiet" isDisabled={upload.isPending}>
            Attach files
          </Button>
        </FileTrigger>
      )}
      <ErrorNote error={files.error} title="The files could not be listed." />
      <ErrorNote error={upload.error} title="The files were not attached." />
      <ErrorNote error={remove.error} title="The file was not removed." />
    </section>
  );
}

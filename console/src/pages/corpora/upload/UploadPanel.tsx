// Adding documents to a corpus: choose files or a folder, or drop them; each file's progress, then
// what became of it. The documents themselves (and their processing) are in the list below.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { DropZone, FileTrigger, Text } from 'react-aria-components';
import { ErrorNote } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import { corpusKeys } from '../corpus-api';
import { DuplicateDialog } from './DuplicateDialog';
import { pickedFromDrop, pickedFromList } from './picked-files';
import { UploadList } from './UploadList';
import { UploadQueue } from './upload-queue';

/**
 * The page's uploads; kept by the corpus page rather than the panel, so that they go on (and stay
 * listed) while another tab is open.
 */
export function useUploadQueue(corpusId: number): UploadQueue {
  const queryClient = useQueryClient();
  const [queue] = useState(
    () =>
      new UploadQueue(corpusId, () => {
        void queryClient.invalidateQueries({ queryKey: corpusKeys.documents(corpusId) });
        void queryClient.invalidateQueries({ queryKey: corpusKeys.detail(corpusId) });
        void queryClient.invalidateQueries({ queryKey: corpusKeys.lists });
      }),
  );
  useEffect(() => {
    queue.resume();
    return () => queue.pause();
  }, [queue]);
  return queue;
}

export function UploadPanel({ queue }: { queue: UploadQueue }) {
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot);
  // Reading what was dropped can fail (a folder the browser may not read): said, not swallowed.
  const [dropError, setDropError] = useState<unknown>(null);

  // The question about duplicates waits until every file has been tried, so it is asked once.
  const duplicates = items.filter((item) => item.state.kind === 'duplicate');
  const asking = duplicates.length > 0 && !queue.busy();

  return (
    <section className="card upload-panel" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Add documents</h2>
      <DropZone
        className="drop-zone"
        onDrop={async (event) => {
          setDropError(null);
          try {
            queue.add(await pickedFromDrop(event.items));
          } catch (error) {
            setDropError(error);
          }
        }}
      >
        <Text slot="label" className="drop-zone-label">
          Drop files or folders here to upload them
        </Text>
        <div className="actions">
          <span className="muted">or</span>
          <FileTrigger allowsMultiple onSelect={(files) => queue.add(pickedFromList(files))}>
            <Button variant="primary">Choose files</Button>
          </FileTrigger>
          <FileTrigger acceptDirectory onSelect={(files) => queue.add(pickedFromList(files))}>
            <Button>Choose a folder</Button>
          </FileTrigger>
        </div>
        <p className="muted text-small">PDF, Word (DOCX), HTML, Markdown, plain text, CSV and JSON.</p>
      </DropZone>
      <ErrorNote error={dropError} title="What was dropped could not be read." />
      <UploadList items={items} onRetry={(key) => queue.retry(key)} onClear={() => queue.clearFinished()} />
      <DuplicateDialog
        isOpen={asking}
        items={duplicates}
        onChoose={(choice) => queue.resolveDuplicates(choice)}
        onCancel={() => queue.dropDuplicates()}
      />
    </section>
  );
}

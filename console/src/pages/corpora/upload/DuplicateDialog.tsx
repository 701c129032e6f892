// The corpus already holds the content of some files: the person decides what to do with them all
// (the API's on_duplicate), and they are sent again with that choice.
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../../ui/Fields';
import type { OnDuplicate } from './upload-file';
import type { UploadItem } from './upload-queue';

interface DuplicateDialogProps {
  isOpen: boolean;
  items: UploadItem[];
  onChoose: (choice: Exclude<OnDuplicate, 'reject'>) => void;
  onCancel: () => void;
}

export function DuplicateDialog({ isOpen, items, onChoose, onCancel }: DuplicateDialogProps) {
  const one = items.length === 1;
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} isDismissable onOpenChange={(open) => !open && onCancel()}>
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{one ? 'This file is already in the corpus' : `${items.length} files are already in the corpus`}</Heading>
          <ul className="duplicate-list">
            {items.map((item) => (
              <li key={item.key}>{item.name}</li>
            ))}
          </ul>
          <dl className="duplicate-choices">
            <dt>Skip</dt>
            <dd>Keep what the corpus has; do not upload {one ? 'it' : 'them'}.</dd>
            <dt>Replace</dt>
            <dd>Delete the document already there and upload {one ? 'this file' : 'these files'}.</dd>
            <dt>Keep both</dt>
            <dd>Upload {one ? 'it' : 'them'} as another document beside the one already there.</dd>
          </dl>
          <div className="dialog-actions wrap">
            <Button variant="quiet" onPress={onCancel}>
              Cancel
            </Button>
            <Button onPress={() => onChoose('skip')}>Skip</Button>
            <Button onPress={() => onChoose('replace')}>Replace</Button>
            <Button variant="primary" onPress={() => onChoose('keep_both')}>
              Keep both
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

// A question before something that cannot be undone (delete, restore): a modal dialog with the
// consequence said and the action named on its button.
import type { ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './Fields';

interface ConfirmDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  danger?: boolean;
}

export function ConfirmDialog({ trigger, title, children, confirmLabel, onConfirm, danger = false }: ConfirmDialogProps) {
  return (
    <DialogTrigger>
      {trigger}
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{title}</Heading>
                <div className="dialog-body">{children}</div>
                <div className="dialog-actions">
                  <Button onPress={close}>Cancel</Button>
                  <Button
                    variant={danger ? 'danger' : 'primary'}
                    onPress={async () => {
                      close();
                      await onConfirm();
                    }}
                  >
                    {confirmLabel}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

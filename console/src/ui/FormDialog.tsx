// A small form in a modal dialog (rename a thread, save a checkpoint, create a corpus): its title, its
// fields, the server's refusal, Cancel and the button that sends it, which waits while the server works.
// Opened by its trigger button, or, without one, by `isOpen` (from a menu).
import type { ReactNode } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ErrorNote } from './Feedback';
import { Button } from './Fields';

interface FormDialogProps {
  title: string;
  /** The button that opens the dialog; leave out to open it with `isOpen`. */
  trigger?: ReactNode;
  isOpen?: boolean;
  /** Also called when Cancel, Escape or a click outside closes it: a place to forget a refusal. */
  onOpenChange?: (isOpen: boolean) => void;
  submitLabel: string;
  pendingLabel: string;
  isPending: boolean;
  /** Whether what is typed may be sent (a required name given). */
  canSubmit: boolean;
  error: unknown;
  errorTitle?: string;
  onSubmit: () => void;
  /** The fields. */
  children: ReactNode;
}

export function FormDialog({ title, trigger, isOpen, onOpenChange, submitLabel, pendingLabel, isPending, canSubmit, error, errorTitle, onSubmit, children }: FormDialogProps) {
  const dialog = (
    <ModalOverlay className="modal-overlay" isDismissable {...(trigger === undefined ? { isOpen, onOpenChange } : {})}>
      <Modal className="modal">
        <Dialog className="dialog">
          {({ close }) => (
            <Form
              className="form"
              onSubmit={(event) => {
                event.preventDefault();
                if (canSubmit && !isPending) onSubmit();
              }}
            >
              <Heading slot="title">{title}</Heading>
              {children}
              <ErrorNote error={error} title={errorTitle} />
              <div className="dialog-actions">
                <Button onPress={close}>Cancel</Button>
                <Button type="submit" variant="primary" isDisabled={isPending || !canSubmit}>
                  {isPending ? pendingLabel : submitLabel}
                </Button>
              </div>
            </Form>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
  if (trigger === undefined) return dialog;
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
      {trigger}
      {dialog}
    </DialogTrigger>
  );
}

// A secret the server gives this once (an API key, an invitation's set-password link): shown in a
// dialog with a copy button and the plain warning that it will not be seen again. Closing it forgets it.
import { useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button, TextField } from '../../ui/Fields';

interface OnceSecretDialogProps {
  title: string;
  /** The field's label: "API key", "Set-password link". */
  label: string;
  /** Null while there is nothing to show (the dialog is closed). */
  secret: string | null;
  /** What to do with it, said above the field. */
  explanation: string;
  onClose: () => void;
}

export function OnceSecretDialog({ title, label, secret, explanation, onClose }: OnceSecretDialogProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const close = () => {
    setCopied(null);
    onClose();
  };
  return (
    <ModalOverlay className="modal-overlay" isOpen={secret !== null} onOpenChange={(open) => !open && close()}>
      <Modal className="modal">
        <Dialog className="dialog" role="alertdialog">
          <Heading slot="title">{title}</Heading>
          <p>{explanation}</p>
          <p className="note note-info">
            <strong>Copy it now: you will not see it again.</strong> The server keeps only a fingerprint of it.
          </p>
          <TextField label={label} value={secret ?? ''} isReadOnly className="secret-field" />
          <div className="dialog-actions">
            <span role="status" className="muted text-small copy-outcome">
              {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Copying failed: select the text and copy it by hand.' : ''}
            </span>
            <Button
              onPress={() =>
                // No clipboard outside a secure context (plain HTTP): said, not thrown.
                (navigator.clipboard === undefined ? Promise.reject(new Error('no clipboard')) : navigator.clipboard.writeText(secret ?? '')).then(
                  () => setCopied('yes'),
                  () => setCopied('failed'),
                )
              }
            >
              Copy
            </Button>
            <Button variant="primary" onPress={close}>
              Done
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

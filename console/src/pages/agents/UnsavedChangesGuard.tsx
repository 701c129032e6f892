// Leaving an agent's form with changes not saved asks first: long instructions are easily lost to a
// click on "Chat" or the back button. Closing or reloading the tab gets the browser's own question.
// Navigations the form makes itself (after creating or deleting) carry `formDone` in their state
// and pass.
import { useEffect } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useBlocker, type Location } from 'react-router';
import { Button } from '../../ui/Fields';

/** The history state of a navigation the form itself makes once its work is done. */
export const FORM_DONE = { formDone: true } as const;

function isFormDone(location: Location): boolean {
  const { state } = location as { state: unknown };
  return typeof state === 'object' && state !== null && 'formDone' in state && state.formDone === true;
}

export function UnsavedChangesGuard({ isDirty }: { isDirty: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname && !isFormDone(nextLocation));

  useEffect(() => {
    if (!isDirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);

  return (
    <ModalOverlay className="modal-overlay" isOpen={blocker.state === 'blocked'} isDismissable onOpenChange={(open) => !open && blocker.reset?.()}>
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title">Leave without saving?</Heading>
          <p className="dialog-body">Your changes to this agent are not saved yet. Leaving drops them.</p>
          <div className="dialog-actions">
            <Button variant="primary" onPress={() => blocker.reset?.()}>
              Stay and keep editing
            </Button>
            <Button variant="danger" onPress={() => blocker.proceed?.()}>
              Leave
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

// The session ended while the console was open (expired, or signed out elsewhere): sign in again
// over the page, which stays as it was, typed text included; then every query is fetched anew.
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { SignInForm } from '../pages/account/SignInForm';
import { useSession } from './session';

export function SessionExpiredDialog() {
  const { expired, user } = useSession();
  return (
    <ModalOverlay className="modal-overlay" isOpen={expired} isDismissable={false}>
      <Modal className="modal">
        <Dialog className="dialog" aria-labelledby="session-expired-title">
          <Heading slot="title" id="session-expired-title">
            Your session has ended
          </Heading>
          <p>Sign in again to go on; what you typed is kept.</p>
          <SignInForm defaultEmail={user?.email ?? ''} submitLabel="Sign in again" />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

// What a profile form says after pressing its button: saved, refused (the server's reasons), or
// waiting for the person to sign in again.
import type { ReactNode } from 'react';
import { SuccessNote } from '../../ui/Feedback';
import type { FormRefusal } from './serverErrors';

interface SaveOutcomeProps {
  saved: boolean;
  savedText: ReactNode;
  refusal: FormRefusal | undefined;
  waitingForSignIn: boolean;
}

export function SaveOutcome({ saved, savedText, refusal, waitingForSignIn }: SaveOutcomeProps) {
  if (waitingForSignIn) {
    return (
      <p className="note note-info" role="status">
        Not saved yet: your session ended. Sign in again and it is saved.
      </p>
    );
  }
  if (refusal !== undefined) {
    return (
      <div className="note note-error" role="alert">
        {refusal.summary}
      </div>
    );
  }
  return saved ? <SuccessNote>{savedText}</SuccessNote> : null;
}

// A save refused because the session ended mid-work (401) is not lost: the sign-in dialog opens over
// the page (SessionExpiredDialog), the form keeps what was typed, and once the person has signed in
// again the same save is sent once more.
import { useEffect } from 'react';
import { useSession } from '../../session/session';
import { isSessionEnded } from './serverErrors';

interface RetryableSave<Variables> {
  error: unknown;
  variables: Variables | undefined;
  mutate(variables: Variables): void;
}

/** Returns whether the save waits for the person to sign in again. */
export function useSaveAcrossSignIn<Variables>({ error, variables, mutate }: RetryableSave<Variables>): boolean {
  const { expired, user } = useSession();
  const signedIn = user !== null;
  const waiting = isSessionEnded(error);
  useEffect(() => {
    // `expired` turned true with the 401 itself (api/client.ts reports it before the save fails), so
    // a waiting save with the session back and a user signed in means the person signed in again.
    if (waiting && !expired && signedIn && variables !== undefined) mutate(variables);
  }, [waiting, expired, signedIn, variables, mutate]);
  return waiting;
}

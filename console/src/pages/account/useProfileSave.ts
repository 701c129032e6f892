// Saving the signed-in user's own profile (PUT /api/v2/users/{id}), as the name and password forms
// do: the header shows the answer at once, a refusal is worded with the form's labels, and a save
// refused because the session ended is sent again once the person has signed in.
import type { paths } from '@agent-platform/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { type CurrentUser, ME_QUERY_KEY } from '../../session/session';
import { isSessionEnded, refusalOf } from './serverErrors';
import { useSaveAcrossSignIn } from './useSaveAcrossSignIn';

type ProfileChange = paths['/api/v2/users/{user_id}']['put']['requestBody']['content']['application/json'];

interface ProfileSaveOptions {
  /** The form's field names and their labels, for the refusal's wording. */
  labels: Record<string, string>;
  /** What the refusal opens with ("Not saved:"). */
  outcome?: string;
  onSaved?: () => void;
}

export function useProfileSave(user: CurrentUser, { labels, outcome, onSaved }: ProfileSaveOptions) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: ProfileChange) => unwrap(api.PUT('/api/v2/users/{user_id}', { params: { path: { user_id: user.id } }, body })),
    onSuccess: (answer) => {
      queryClient.setQueryData<CurrentUser | null>(ME_QUERY_KEY, (me) => (me ? { ...me, ...answer.data } : me));
      onSaved?.();
    },
  });
  const waitingForSignIn = useSaveAcrossSignIn(save);
  // An ended session is said by the sign-in dialog, not as a refusal.
  const refusal = save.error === null || isSessionEnded(save.error) ? undefined : refusalOf(save.error, labels, outcome);
  return { save, refusal, waitingForSignIn };
}

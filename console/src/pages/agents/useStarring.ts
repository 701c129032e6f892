// Which agents the caller starred, and starring or unstarring one. The star changes at once on screen;
// if the server refuses, it goes back and the server's message is shown.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { setStarred } from './agentChanges';
import { agentKeys, personalListIds } from './agentQueries';

export function useStarring() {
  const queryClient = useQueryClient();
  const starredKey = agentKeys.mine('starred');
  const starred = useQuery({ queryKey: starredKey, queryFn: () => personalListIds('starred') });

  const toggle = useMutation({
    mutationFn: ({ agentId, star }: { agentId: number; star: boolean }) => setStarred(agentId, star),
    onMutate: async ({ agentId, star }) => {
      await queryClient.cancelQueries({ queryKey: starredKey });
      const before = queryClient.getQueryData<number[]>(starredKey);
      queryClient.setQueryData<number[]>(starredKey, (ids = []) => (star ? [agentId, ...ids.filter((id) => id !== agentId)] : ids.filter((id) => id !== agentId)));
      return { before };
    },
    onError: (_error, _change, context) => queryClient.setQueryData(starredKey, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: starredKey }),
  });

  const starredIds = new Set(starred.data ?? []);
  return {
    isStarred: (agentId: number) => starredIds.has(agentId),
    setStar: (agentId: number, star: boolean) => toggle.mutate({ agentId, star }),
    readError: starred.error,
    changeError: toggle.error,
  };
}

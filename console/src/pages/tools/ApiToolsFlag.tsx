// API tools and MCP server tools sit behind the organization's api-tools feature flag (off by
// default). While it is off the pages say so, and how it is turned on, instead of showing the
// server's refusals; owners and admins may turn it on here (PUT /api/v2/feature-flags/api-tools).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { apiToolsFlagQuery, setApiToolsFlag, toolKeys } from './tools-api';

/** Whether API and MCP server tools may be made and run: undefined while not known yet. */
export function useApiToolsEnabled(): boolean | undefined {
  return useQuery(apiToolsFlagQuery()).data?.enabled;
}

export function ApiToolsFlagNotice() {
  const user = useUser();
  const queryClient = useQueryClient();
  const flag = useQuery(apiToolsFlagQuery());
  const turnOn = useMutation({
    mutationFn: () => setApiToolsFlag(true),
    onSuccess: (data) => queryClient.setQueryData(toolKeys.flag, data),
  });
  if (flag.data === undefined || flag.data.enabled) return <ErrorNote error={flag.error} title="Whether API tools are on could not be read." />;
  const mayTurnOn = atLeast(user.role, 'admin');
  return (
    <section className="note note-info flag-notice" aria-labelledby="api-tools-off">
      <h2 id="api-tools-off">API and MCP server tools are off</h2>
      <p>
        They call services outside the platform, so they are behind the organization’s <code>api-tools</code> feature flag, which is off. While it is off they cannot be
        made, tested or called by agents.
      </p>
      {mayTurnOn ? (
        <div className="actions">
          <Button variant="primary" onPress={() => turnOn.mutate()} isDisabled={turnOn.isPending}>
            {turnOn.isPending ? 'Turning on…' : 'Turn on API tools'}
          </Button>
          <span className="muted text-small">For the whole organization (PUT /api/v2/feature-flags/api-tools).</span>
        </div>
      ) : (
        <p>An owner or admin of the organization can turn it on (PUT /api/v2/feature-flags/api-tools).</p>
      )}
      <ErrorNote error={turnOn.error} title="The flag could not be turned on." />
    </section>
  );
}

// Turning the agent on and off: active agents answer, inactive ones do not. A draft has never been
// activated.
import { useMutation } from '@tanstack/react-query';
import { Switch } from 'react-aria-components';
import { ErrorNote } from '../../ui/Feedback';
import { setAgentActive } from './agentChanges';
import type { Agent } from './agentQueries';
import { StatusBadge } from './StatusBadge';

interface AgentStatusSwitchProps {
  agent: Agent;
  canChange: boolean;
  onChanged: (agent: Agent) => void;
}

export function AgentStatusSwitch({ agent, canChange, onChanged }: AgentStatusSwitchProps) {
  const change = useMutation({ mutationFn: (active: boolean) => setAgentActive(agent.id, active), onSuccess: onChanged });
  const isActive = change.isPending && change.variables !== undefined ? change.variables : agent.status === 'active';
  return (
    <div className="agent-status">
      <Switch isSelected={isActive} onChange={(active) => change.mutate(active)} isDisabled={!canChange || change.isPending}>
        <span className="track" aria-hidden="true" />
        Active
      </Switch>
      <StatusBadge status={agent.status} />
      <ErrorNote error={change.error} title="The status could not be changed." />
    </div>
  );
}

// The way back from the history to the agent's chat and settings.
import { Link } from 'react-router';

export function AgentLinks({ agentId }: { agentId: number }) {
  return (
    <>
      <Link className="button" to={`/agents/${agentId}/chat`}>
        Chat
      </Link>
      <Link className="button" to={`/agents/${agentId}`}>
        Settings
      </Link>
    </>
  );
}

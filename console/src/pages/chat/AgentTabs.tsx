// The agent's pages: its settings, this chat, its history.
import { NavLink } from 'react-router';

export function AgentTabs({ agentId }: { agentId: number }) {
  return (
    <nav className="tabs-nav agent-tabs" aria-label="Agent">
      <NavLink to={`/agents/${agentId}`} end>
        Settings
      </NavLink>
      <NavLink to={`/agents/${agentId}/chat`}>Chat</NavLink>
      <NavLink to={`/agents/${agentId}/history`}>History</NavLink>
    </nav>
  );
}

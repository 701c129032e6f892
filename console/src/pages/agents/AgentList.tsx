// The agents as a list of rows: the star, the name (to its settings), its status, team and project,
// and links to talk to it and to its history. Rows stack on a narrow screen.
import { Link } from 'react-router';
import { ErrorNote } from '../../ui/Feedback';
import type { Agent } from './agentQueries';
import { StarToggle } from './StarToggle';
import { StatusBadge } from './StatusBadge';
import { namesById, useProjects, useTeams } from './useAgentChoices';
import { useStarring } from './useStarring';

export function AgentList({ agents }: { agents: Agent[] }) {
  const starring = useStarring();
  const teamNames = namesById(useTeams().data);
  const projectNames = namesById(useProjects().data);
  return (
    <>
      <ErrorNote error={starring.readError} title="Your stars could not be read." />
      <ErrorNote error={starring.changeError} title="The star could not be changed." />
      <ul className="agent-list" aria-label="Agents">
        {agents.map((agent) => (
          <li key={agent.id} className="agent-row">
            <StarToggle agentName={agent.name} isStarred={starring.isStarred(agent.id)} onChange={(star) => starring.setStar(agent.id, star)} />
            <div className="agent-row-main">
              <div className="agent-row-title">
                <Link to={`/agents/${agent.id}`} className="agent-row-name">
                  {agent.name}
                </Link>
                <StatusBadge status={agent.status} />
              </div>
              {agent.description !== '' && <p className="agent-row-description">{agent.description}</p>}
              <AgentPlace team={agent.team_id === null ? undefined : teamNames.get(agent.team_id)} project={agent.project_id === null ? undefined : projectNames.get(agent.project_id)} />
            </div>
            <div className="agent-row-links">
              <Link to={`/agents/${agent.id}/chat`} aria-label={`Chat with ${agent.name}`}>
                Chat
              </Link>
              <Link to={`/agents/${agent.id}`} aria-label={`Settings of ${agent.name}`}>
                Settings
              </Link>
              <Link to={`/agents/${agent.id}/history`} aria-label={`History of ${agent.name}`}>
                History
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

function AgentPlace({ team, project }: { team?: string; project?: string }) {
  if (team === undefined && project === undefined) return null;
  return (
    <p className="agent-row-place">
      {team !== undefined && <span>Team: {team}</span>}
      {project !== undefined && <span>Project: {project}</span>}
    </p>
  );
}

// Where the agent belongs: a team (whose leads and editors then write it) and a project. Offered are
// the teams this person may put an agent in, and the one it is in now.
import { useUser } from '../../session/session';
import { ErrorNote } from '../../ui/Feedback';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import type { AgentDraft, FieldErrors } from './agentDraft';
import { mayCreateWithoutTeam, mayPlaceInTeam } from './agentPermissions';
import { useProjects, useTeams } from './useAgentChoices';

const NONE = 'none';

interface PlaceFieldsProps {
  draft: AgentDraft;
  /** The team the agent is in now (null: none; undefined: a new agent). */
  savedTeamId: number | null | undefined;
  onChange: (change: Partial<AgentDraft>) => void;
  errors: FieldErrors['byField'];
  isReadOnly: boolean;
}

const ROLE_DETAIL: Record<string, string> = { lead: 'You lead it', editor: 'You edit its agents', viewer: 'You view it' };

export function PlaceFields({ draft, savedTeamId, onChange, errors, isReadOnly }: PlaceFieldsProps) {
  const user = useUser();
  const teams = useTeams();
  const projects = useProjects();

  const teamChoices: SelectOption<string>[] = [];
  if (mayCreateWithoutTeam(user) || savedTeamId === null) teamChoices.push({ id: NONE, label: 'No team' });
  for (const team of teams.data ?? []) {
    if (mayPlaceInTeam(user, team.id) || team.id === savedTeamId || team.id === draft.teamId) {
      teamChoices.push({ id: String(team.id), label: team.name, detail: team.caller_role === null ? undefined : ROLE_DETAIL[team.caller_role] });
    }
  }
  if (draft.teamId !== null && !teamChoices.some((choice) => choice.id === String(draft.teamId))) teamChoices.push({ id: String(draft.teamId), label: `Team ${draft.teamId}` });

  const projectChoices: SelectOption<string>[] = [{ id: NONE, label: 'No project' }, ...(projects.data ?? []).map((project) => ({ id: String(project.id), label: project.name }))];
  if (draft.projectId !== null && !projectChoices.some((choice) => choice.id === String(draft.projectId))) {
    projectChoices.push({ id: String(draft.projectId), label: `Project ${draft.projectId}` });
  }

  return (
    <div className="form-row">
      <SelectField
        label="Team"
        description="The team's leads and editors change the agent."
        options={teamChoices}
        value={draft.teamId === null ? NONE : String(draft.teamId)}
        onChange={(key) => onChange({ teamId: key === NONE ? null : Number(key) })}
        errorMessage={errors.team_id}
        isDisabled={isReadOnly}
      />
      <SelectField
        label="Project"
        options={projectChoices}
        value={draft.projectId === null ? NONE : String(draft.projectId)}
        onChange={(key) => onChange({ projectId: key === NONE ? null : Number(key) })}
        errorMessage={errors.project_id}
        isDisabled={isReadOnly}
      />
      <ErrorNote error={teams.error} title="The teams could not be read." />
      <ErrorNote error={projects.error} title="The projects could not be read." />
    </div>
  );
}

// One team (/organization/people/teams/:id): renamed and deleted by its leads, owners and admins, who
// also add members with a role, change roles and remove members; anyone leaves a team.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { SelectField } from '../../ui/SelectField';
import { GroupHeader } from './GroupHeader';
import { MemberNameCell, MembersSection } from './MembersSection';
import { AddMemberForm, RemoveMemberButton } from './MembershipControls';
import { fullName, peopleKeys, teammatesQuery, teamQuery, TEAM_ROLE_OPTIONS, type Team, type Teammate, type TeamRole } from './people-api';
import { useTeamChange } from './TeamsPage';

const MANAGE_REASON = "Only the team's leads, owners and admins change the team and its members.";

export function TeamPage() {
  const teamId = Number(useParams().teamId);
  const me = useUser();
  const team = useQuery(teamQuery(teamId));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const rename = useTeamChange(teamId, (fields: { name: string; description: string }) =>
    unwrap(api.PUT('/api/v2/teams/{team_id}', { params: { path: { team_id: teamId } }, body: fields })),
  );
  const remove = useTeamChange<void>(teamId, async () => {
    await unwrap(api.DELETE('/api/v2/teams/{team_id}', { params: { path: { team_id: teamId } } }));
    queryClient.removeQueries({ queryKey: peopleKeys.team(teamId) });
    await navigate('/organization/people/teams');
  });
  if (team.isPending) return <Loading label="Loading the team…" />;
  if (team.data === undefined) return <ErrorNote error={team.error} title="The team could not be loaded." />;
  const mayManage = me.role === 'owner' || me.role === 'admin' || team.data.caller_role === 'lead';
  return (
    <>
      <GroupHeader
        noun="team"
        listPath="/organization/people/teams"
        group={team.data}
        rename={mayManage ? rename : null}
        remove={mayManage ? remove : null}
        deleteConsequence="Its memberships go with it. Its agents stay, belonging to no team."
      />
      {!mayManage && <p className="muted">{MANAGE_REASON}</p>}
      <TeamMembers team={team.data} mayManage={mayManage} />
    </>
  );
}

function TeamMembers({ team, mayManage }: { team: Team; mayManage: boolean }) {
  const members = useQuery(teammatesQuery(team.id));
  return (
    <MembersSection
      noun="team"
      addForm={mayManage && <AddTeammateForm teamId={team.id} />}
      members={members.data?.items}
      isPending={members.isPending}
      error={members.error}
      columns={['Role in the team']}
      row={(member) => <TeammateRow key={member.user_id} teamId={team.id} member={member} mayManage={mayManage} />}
    />
  );
}

function AddTeammateForm({ teamId }: { teamId: number }) {
  const [role, setRole] = useState<TeamRole>('editor');
  const add = useTeamChange(teamId, (userId: number) =>
    unwrap(api.POST('/api/v2/teams/{team_id}/members', { params: { path: { team_id: teamId } }, body: { user_id: userId, role } })),
  );
  return (
    <AddMemberForm label="Add a member to the team" submitLabel="Add to team" add={add}>
      <SelectField label="Role in the team" options={TEAM_ROLE_OPTIONS} value={role} onChange={setRole} />
    </AddMemberForm>
  );
}

function TeammateRow({ teamId, member, mayManage }: { teamId: number; member: Teammate; mayManage: boolean }) {
  const me = useUser();
  const changeRole = useTeamChange(teamId, (role: TeamRole) =>
    unwrap(api.PUT('/api/v2/teams/{team_id}/members/{user_id}', { params: { path: { team_id: teamId, user_id: member.user_id } }, body: { role } })),
  );
  const remove = useTeamChange<void>(teamId, () =>
    unwrap(api.DELETE('/api/v2/teams/{team_id}/members/{user_id}', { params: { path: { team_id: teamId, user_id: member.user_id } } })),
  );
  const isMe = member.user_id === me.id;
  return (
    <tr>
      <MemberNameCell name={fullName(member)} email={member.email} isActive={member.is_active} />
      <td data-label="Role in the team">
        {mayManage ? (
          <SelectField
            label={`Team role of ${member.email}`}
            hideLabel
            options={TEAM_ROLE_OPTIONS}
            value={changeRole.isPending && changeRole.variables !== undefined ? changeRole.variables : member.role}
            onChange={(role) => role !== member.role && changeRole.mutate(role)}
            isDisabled={changeRole.isPending}
          />
        ) : (
          TEAM_ROLE_OPTIONS.find((option) => option.id === member.role)?.label
        )}
        <ErrorNote error={changeRole.error} title="The role was not changed:" />
      </td>
      <td>
        {(mayManage || isMe) && (
          <RemoveMemberButton
            email={member.email}
            isMe={isMe}
            from="the team"
            remove={remove}
            consequences={{ leave: 'You lose your role in the team and its agents.', remove: 'They lose their role in the team and its agents; they stay in the organization.' }}
          />
        )}
      </td>
    </tr>
  );
}

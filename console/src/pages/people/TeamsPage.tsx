// The organization's teams (everyone sees them all), a page at a time; anyone but a viewer creates
// one and becomes its lead.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { atLeast, VIEWER_REASON } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { DisabledWithReason } from './DisabledWithReason';
import { NameDialog } from './NameDialog';
import { PAGE_SIZE, peopleKeys, roleLabel, teamsPageQuery } from './people-api';
import { DataTable } from '../../ui/DataTable';

export function TeamsPage() {
  const me = useUser();
  const [page, setPage] = useState(1);
  const teams = useQuery(teamsPageQuery(page));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = async (fields: { name: string; description: string }) => {
    const { data } = await unwrap(api.POST('/api/v2/teams', { body: fields }));
    await queryClient.invalidateQueries({ queryKey: peopleKeys.teams });
    await queryClient.invalidateQueries({ queryKey: ['choices', 'teams'] });
    await navigate(`/organization/people/teams/${data.id}`);
  };
  return (
    <>
      <PageHeader title="Teams" description="Teams own agents; their members have a role in each: lead, editor or viewer.">
        {atLeast(me.role, 'member') ? (
          <NameDialog title="New team" triggerLabel="New team" triggerVariant="primary" submitLabel="Create team" pendingLabel="Creating…" noun="team" save={create} />
        ) : (
          <DisabledWithReason label="New team" reason={VIEWER_REASON} />
        )}
      </PageHeader>
      <ErrorNote error={teams.error} title="The teams could not be loaded." />
      {teams.isPending && <Loading label="Loading the teams…" />}
      {teams.data !== undefined &&
        (teams.data.items.length === 0 ? (
          <Empty>No teams yet.</Empty>
        ) : (
          <>
            <DataTable columns={['Team', 'Description', 'Members', 'Your role']} className="people-table">
              {teams.data.items.map((team) => (
                <tr key={team.id}>
                  <th scope="row">
                    <Link to={`/organization/people/teams/${team.id}`}>{team.name}</Link>
                  </th>
                  <td data-label="Description">{team.description || <span className="muted">—</span>}</td>
                  <td data-label="Members">{team.member_count}</td>
                  <td data-label="Your role">{team.caller_role === null ? <span className="muted">Not a member</span> : roleLabel(team.caller_role)}</td>
                </tr>
              ))}
            </DataTable>
            <Pager page={page} pageSize={PAGE_SIZE} total={teams.data.total} nouns={['team', 'teams']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

/** A mutation that, once done, reads the team and its members again (and the lists that show them). */
export function useTeamChange<T>(teamId: number, change: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: peopleKeys.teams });
      await queryClient.invalidateQueries({ queryKey: ['choices', 'teams'] });
      await queryClient.invalidateQueries({ queryKey: peopleKeys.team(teamId) });
    },
  });
}

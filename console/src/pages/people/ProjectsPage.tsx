// The organization's projects (everyone sees them all), a page at a time; anyone but a viewer
// creates one and is its first member.
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
import { PAGE_SIZE, peopleKeys, projectsPageQuery } from './people-api';
import { DataTable } from '../../ui/DataTable';

export function ProjectsPage() {
  const me = useUser();
  const [page, setPage] = useState(1);
  const projects = useQuery(projectsPageQuery(page));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = async (fields: { name: string; description: string }) => {
    const { data } = await unwrap(api.POST('/api/v2/projects', { body: fields }));
    await invalidateProjects(queryClient);
    await navigate(`/organization/people/projects/${data.id}`);
  };
  return (
    <>
      <PageHeader title="Projects" description="Projects group agents around a piece of work; their members may change them.">
        {atLeast(me.role, 'member') ? (
          <NameDialog title="New project" triggerLabel="New project" triggerVariant="primary" submitLabel="Create project" pendingLabel="Creating…" noun="project" save={create} />
        ) : (
          <DisabledWithReason label="New project" reason={VIEWER_REASON} />
        )}
      </PageHeader>
      <ErrorNote error={projects.error} title="The projects could not be loaded." />
      {projects.isPending && <Loading label="Loading the projects…" />}
      {projects.data !== undefined &&
        (projects.data.items.length === 0 ? (
          <Empty>No projects yet.</Empty>
        ) : (
          <>
            <DataTable columns={['Project', 'Description', 'Members']} className="people-table">
              {projects.data.items.map((project) => (
                <tr key={project.id}>
                  <th scope="row">
                    <Link to={`/organization/people/projects/${project.id}`}>{project.name}</Link>
                  </th>
                  <td data-label="Description">{project.description || <span className="muted">—</span>}</td>
                  <td data-label="Members">{project.users.length}</td>
                </tr>
              ))}
            </DataTable>
            <Pager page={page} pageSize={PAGE_SIZE} total={projects.data.total} nouns={['project', 'projects']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

async function invalidateProjects(queryClient: ReturnType<typeof useQueryClient>) {
  await queryClient.invalidateQueries({ queryKey: peopleKeys.projects });
  await queryClient.invalidateQueries({ queryKey: ['choices', 'projects'] });
}

/** A change to a project, after which the project and the lists that show it are read again. */
export function useProjectChange<T>(change: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: () => invalidateProjects(queryClient) });
}

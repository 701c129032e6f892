// One project (/organization/people/projects/:id): its members (not viewers), owners and admins
// rename it and add or remove its users; its creator, owners and admins delete it; anyone leaves it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useUser, type CurrentUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { GroupHeader } from './GroupHeader';
import { MemberNameCell, MembersSection } from './MembersSection';
import { AddMemberForm, RemoveMemberButton } from './MembershipControls';
import { fullName, peopleKeys, projectQuery, type Project } from './people-api';
import { useProjectChange } from './ProjectsPage';

const CHANGE_REASON = "Only the project's members (not viewers), owners and admins change it and its users.";

function abilities(me: CurrentUser, project: Project) {
  const isAdmin = me.role === 'owner' || me.role === 'admin';
  const isMember = project.users.some((user) => user.id === me.id);
  return {
    mayChange: isAdmin || (isMember && me.role !== 'viewer'),
    mayDelete: isAdmin || (project.created_by === me.email && me.role !== 'viewer'),
  };
}

export function ProjectPage() {
  const projectId = Number(useParams().projectId);
  const me = useUser();
  const project = useQuery(projectQuery(projectId));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const rename = useProjectChange((fields: { name: string; description: string }) =>
    unwrap(api.PUT('/api/v2/projects/{project_id}', { params: { path: { project_id: projectId } }, body: fields })),
  );
  const remove = useProjectChange<void>(async () => {
    await unwrap(api.DELETE('/api/v2/projects/{project_id}', { params: { path: { project_id: projectId } } }));
    queryClient.removeQueries({ queryKey: peopleKeys.project(projectId) });
    await navigate('/organization/people/projects');
  });
  if (project.isPending) return <Loading label="Loading the project…" />;
  if (project.data === undefined) return <ErrorNote error={project.error} title="The project could not be loaded." />;
  const { mayChange, mayDelete } = abilities(me, project.data);
  return (
    <>
      <GroupHeader
        noun="project"
        listPath="/organization/people/projects"
        group={project.data}
        rename={mayChange ? rename : null}
        remove={mayDelete ? remove : null}
        deleteConsequence="Its agents stay, belonging to no project."
      />
      {!mayChange && <p className="muted">{CHANGE_REASON}</p>}
      <MembersSection
        noun="project"
        addForm={mayChange && <AddProjectUserForm projectId={projectId} />}
        members={project.data.users}
        columns={[]}
        row={(user) => <ProjectUserRow key={user.id} projectId={projectId} user={user} mayRemove={mayChange || user.id === me.id} isMe={user.id === me.id} />}
      />
    </>
  );
}

function AddProjectUserForm({ projectId }: { projectId: number }) {
  const add = useProjectChange((userId: number) =>
    unwrap(api.POST('/api/v2/projects/{project_id}/users', { params: { path: { project_id: projectId } }, body: { user_ids: [userId] } })),
  );
  return <AddMemberForm label="Add a member to the project" submitLabel="Add to project" add={add} />;
}

function ProjectUserRow({ projectId, user, mayRemove, isMe }: { projectId: number; user: Project['users'][number]; mayRemove: boolean; isMe: boolean }) {
  const remove = useProjectChange<void>(() =>
    unwrap(api.DELETE('/api/v2/projects/{project_id}/users/{user_id}', { params: { path: { project_id: projectId, user_id: user.id } } })),
  );
  return (
    <tr>
      <MemberNameCell name={fullName(user)} email={user.email} />
      <td>
        {mayRemove && (
          <RemoveMemberButton
            email={user.email}
            isMe={isMe}
            from="the project"
            remove={remove}
            consequences={{ leave: 'You are no longer a member of the project.', remove: 'They are no longer a member of the project; they stay in the organization.' }}
          />
        )}
      </td>
    </tr>
  );
}

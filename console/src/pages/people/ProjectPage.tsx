// One project (/organization/people/projects/:id): its members (not viewers), owners and admins
// rename it and add or remove its users; its creator, owners and admins delete it; anyone leaves it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useUser, type CurrentUser } from '../../session/session';
import { DeleteButton } from '../../ui/DeleteButton';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { UserPicker } from '../corpora/permissions/UserPicker';
import { NameDialog } from './NameDialog';
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
  const remove = useProjectChange(async () => {
    await unwrap(api.DELETE('/api/v2/projects/{project_id}', { params: { path: { project_id: projectId } } }));
    queryClient.removeQueries({ queryKey: peopleKeys.project(projectId) });
    await navigate('/organization/people/projects');
  });
  if (project.isPending) return <Loading label="Loading the project…" />;
  if (project.data === undefined) return <ErrorNote error={project.error} title="The project could not be loaded." />;
  const { mayChange, mayDelete } = abilities(me, project.data);
  return (
    <>
      <p className="people-breadcrumb">
        <Link to="/organization/people/projects">All projects</Link>
      </p>
      <PageHeader title={project.data.name} description={project.data.description || undefined}>
        {mayChange && (
          <NameDialog
            title="Rename the project"
            triggerLabel="Rename"
            submitLabel="Save"
            pendingLabel="Saving…"
            noun="project"
            initial={{ name: project.data.name, description: project.data.description }}
            save={(fields) => rename.mutateAsync(fields)}
          />
        )}
        {mayDelete && (
          <DeleteButton
            label="Delete project"
            title={`Delete ${project.data.name}?`}
            confirmLabel="Delete project"
            isPending={remove.isPending}
            error={remove.error}
            errorTitle="Not deleted:"
            onDelete={() => remove.mutate(undefined)}
          >
            <p>Its agents stay, belonging to no project.</p>
          </DeleteButton>
        )}
      </PageHeader>
      {!mayChange && <p className="muted">{CHANGE_REASON}</p>}
      <section aria-labelledby="project-users-heading">
        <h2 id="project-users-heading">Members</h2>
        {mayChange && <AddProjectUserForm projectId={projectId} />}
        {project.data.users.length === 0 ? (
          <Empty>No members yet.</Empty>
        ) : (
          <div className="table-wrap">
            <table className="plain people-table">
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {project.data.users.map((user) => (
                  <ProjectUserRow key={user.id} projectId={projectId} user={user} mayRemove={mayChange || user.id === me.id} isMe={user.id === me.id} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function AddProjectUserForm({ projectId }: { projectId: number }) {
  const [userId, setUserId] = useState<number | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const add = useProjectChange((id: number) => unwrap(api.POST('/api/v2/projects/{project_id}/users', { params: { path: { project_id: projectId } }, body: { user_ids: [id] } })));
  return (
    <>
      <Form
        className="add-form"
        aria-label="Add a member to the project"
        onSubmit={(event) => {
          event.preventDefault();
          if (userId !== null)
            add.mutate(userId, {
              onSuccess: () => {
                setUserId(null);
                setPickerKey((key) => key + 1);
              },
            });
        }}
      >
        <UserPicker key={pickerKey} selectedId={userId} onSelect={setUserId} />
        <Button type="submit" variant="primary" isDisabled={userId === null || add.isPending}>
          {add.isPending ? 'Adding…' : 'Add to project'}
        </Button>
      </Form>
      <ErrorNote error={add.error} title="Not added:" />
    </>
  );
}

function ProjectUserRow({ projectId, user, mayRemove, isMe }: { projectId: number; user: Project['users'][number]; mayRemove: boolean; isMe: boolean }) {
  const remove = useProjectChange(() =>
    unwrap(api.DELETE('/api/v2/projects/{project_id}/users/{user_id}', { params: { path: { project_id: projectId, user_id: user.id } } })),
  );
  return (
    <tr>
      <th scope="row">{fullName(user) || user.email}</th>
      <td data-label="E-mail">{user.email}</td>
      <td>
        {mayRemove && (
          <div className="row-actions">
            <DeleteButton
              label={isMe ? 'Leave' : 'Remove'}
              accessibleName={isMe ? 'Leave the project' : `Remove ${user.email} from the project`}
              title={isMe ? 'Leave the project?' : `Remove ${user.email} from the project?`}
              confirmLabel={isMe ? 'Leave' : 'Remove'}
              compact
              isPending={remove.isPending}
              error={remove.error}
              errorTitle="Not removed:"
              onDelete={() => remove.mutate(undefined)}
            >
              <p>{isMe ? 'You are no longer a member of the project.' : 'They are no longer a member of the project; they stay in the organization.'}</p>
            </DeleteButton>
          </div>
        )}
      </td>
    </tr>
  );
}

// Adding a tool of one kind (/tools/new/:kind): written whole, then straight to it to test it. API and
// MCP server tools wait for the api-tools flag; only owners and admins add tools.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { NotFoundPage } from '../NotFoundPage';
import { ApiToolsFlagNotice, useApiToolsEnabled } from './ApiToolsFlag';
import { createTool } from './tool-changes';
import { ToolForm, type ToolBody } from './ToolForm';
import { forgetToolLists, KINDS, MANAGERS_ONLY } from './tools-api';

export default function NewToolPage() {
  const { kind: path } = useParams();
  const entry = KINDS.find((candidate) => candidate.path === path);
  const user = useUser();
  const flagOn = useApiToolsEnabled();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (body: ToolBody) => createTool(user.organization_id, entry!.kind, body),
    onSuccess: async (tool) => {
      await forgetToolLists(queryClient);
      await navigate(`/tools/${tool.id}`);
    },
  });
  if (entry === undefined) return <NotFoundPage />;
  const title = `New ${entry.one}`;
  const body = () => {
    if (!atLeast(user.role, 'admin')) return <p className="muted">{MANAGERS_ONLY}</p>;
    if (entry.needsFlag && flagOn === undefined) return <Loading />;
    if (entry.needsFlag && !flagOn) return <ApiToolsFlagNotice />;
    return (
      <>
        {entry.kind === 'mcp' && <p className="muted">The server is asked for its tools when it is added; then choose which of them agents are given.</p>}
        <ToolForm kind={entry.kind} submitLabel={`Add ${entry.one}`} pendingLabel="Adding…" isPending={create.isPending} error={create.error} onSubmit={(value) => create.mutate(value)} onCancel={() => navigate('/tools')} />
      </>
    );
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to="/tools">Tools</Link>
      </p>
      <PageHeader title={title} />
      {body()}
    </>
  );
}

// One tool (/tools/:toolId): what it is and whether agents may call it; for owners and admins its
// settings (changed whole, the secret kept unless a new one is typed), a test run showing the request
// sent and the answer, an MCP server's tools to choose from, and deleting it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Switch } from 'react-aria-components';
import { Link, useNavigate, useParams } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { DeleteButton } from '../../ui/DeleteButton';
import { ErrorNote, Loading, SuccessNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { NotFoundPage } from '../NotFoundPage';
import { CodeBlock } from './CodeBlock';
import { ApiToolsFlagNotice, useApiToolsEnabled } from './ApiToolsFlag';
import { EnabledBadge } from './EnabledBadge';
import { McpToolChoice } from './McpToolChoice';
import { deleteTool, setToolEnabled, updateTool } from './tool-changes';
import { ToolForm, type ToolBody } from './ToolForm';
import { ToolTestPanel } from './ToolTestPanel';
import { forgetToolLists, kindOf, MANAGERS_ONLY, toolKeys, toolQuery, type Tool } from './tools-api';

export default function ToolPage() {
  const toolId = Number(useParams().toolId);
  const user = useUser();
  const tool = useQuery({ ...toolQuery(user.organization_id, toolId), enabled: Number.isInteger(toolId) && toolId > 0 });
  if (!Number.isInteger(toolId) || toolId <= 0) return <NotFoundPage />;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/tools">Tools</Link>
      </p>
      {tool.isPending && !tool.isError && <Loading label="Loading the tool…" />}
      {tool.isError && (
        <>
          <PageHeader title="Tool" />
          <ErrorNote error={tool.error} title="The tool could not be loaded." />
        </>
      )}
      {tool.data !== undefined && <ToolDetails tool={tool.data} />}
    </>
  );
}

function ToolDetails({ tool }: { tool: Tool }) {
  const user = useUser();
  const mayManage = atLeast(user.role, 'admin');
  const flagOn = useApiToolsEnabled();
  const kind = kindOf(tool.kind);
  const held = kind.needsFlag && flagOn === false;
  const ids = { org_id: user.organization_id, tool_id: tool.id };
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const adopt = async (changed: Tool) => {
    queryClient.setQueryData(toolKeys.one(changed.id), changed);
    await forgetToolLists(queryClient);
  };
  const save = useMutation({
    mutationFn: (body: ToolBody) => updateTool(ids, body),
    onSuccess: async (changed) => {
      await adopt(changed);
      setEditing(false);
      setSaved(true);
    },
  });
  const enable = useMutation({ mutationFn: (enabled: boolean) => setToolEnabled(ids, enabled), onSuccess: adopt });
  const remove = useMutation({
    mutationFn: () => deleteTool(ids),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: toolKeys.one(tool.id) });
      await forgetToolLists(queryClient);
      await navigate('/tools');
    },
  });
  const enabled = enable.isPending && enable.variables !== undefined ? enable.variables : tool.enabled;

  return (
    <>
      <PageHeader title={tool.name} description={`${kind.one[0]!.toUpperCase()}${kind.one.slice(1)}`}>
        {mayManage && (
          <DeleteButton label="Delete tool" title={`Delete ${tool.name}?`} confirmLabel="Delete tool" isPending={remove.isPending} error={remove.error} errorTitle="The tool was not deleted." onDelete={() => remove.mutate()}>
            <p>Agents that name it no longer call it. This cannot be undone.</p>
          </DeleteButton>
        )}
      </PageHeader>
      {held && <ApiToolsFlagNotice />}
      <p className="tool-description-full">{tool.description}</p>
      <div className="tool-state">
        {mayManage ? (
          <Switch isSelected={enabled} onChange={(value) => enable.mutate(value)} isDisabled={enable.isPending}>
            <span className="track" aria-hidden="true" />
            Enabled for the organization
          </Switch>
        ) : null}
        <EnabledBadge enabled={tool.enabled} />
        <span className="muted text-small">{tool.enabled ? 'Agents that name it may call it.' : 'Agents that name it keep it but do not call it.'}</span>
      </div>
      <ErrorNote error={enable.error} title="The tool was not switched." />
      {!mayManage ? (
        <p className="muted">{MANAGERS_ONLY}</p>
      ) : (
        <>
          {tool.kind === 'mcp' && <McpToolChoice tool={tool} ids={ids} onChanged={adopt} held={held} />}
          {!held && <ToolTestPanel tool={tool} ids={ids} />}
          <section aria-labelledby="settings-heading" className="tool-panel">
            <h2 id="settings-heading">Settings</h2>
            {saved && !editing && <SuccessNote>Saved.</SuccessNote>}
            {editing ? (
              <ToolForm
                kind={tool.kind}
                tool={tool}
                submitLabel="Save changes"
                pendingLabel="Saving…"
                isPending={save.isPending}
                error={save.error}
                onSubmit={(body) => save.mutate(body)}
                onCancel={() => {
                  setEditing(false);
                  save.reset();
                }}
              />
            ) : (
              <>
                <SettingsSummary tool={tool} />
                <Button
                  onPress={() => {
                    setSaved(false);
                    setEditing(true);
                  }}
                  isDisabled={held}
                >
                  Edit settings
                </Button>
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}

function SettingsSummary({ tool }: { tool: Tool }) {
  const { tools: _chosen, ...config } = (tool.config ?? {}) as Record<string, unknown>;
  return (
    <dl className="tool-summary">
      <dt>Configuration</dt>
      <dd>
        <CodeBlock label="Settings as JSON">{JSON.stringify(tool.kind === 'mcp' ? config : tool.config, null, 2)}</CodeBlock>
      </dd>
      <dt>Secret</dt>
      <dd>{tool.secret_hint ?? 'None'}</dd>
      {tool.modified_on !== undefined && (
        <>
          <dt>Last changed</dt>
          <dd>
            {new Date(tool.modified_on).toLocaleString()} by {tool.modified_by}
          </dd>
        </>
      )}
    </dl>
  );
}

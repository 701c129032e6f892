// The organization's tools (/tools), grouped by kind, each with whether agents may call it; the ways
// to add one (owners and admins), and the api-tools flag's state where it holds API and MCP tools back.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { ApiToolsFlagNotice, useApiToolsEnabled } from './ApiToolsFlag';
import { EnabledBadge } from './EnabledBadge';
import { RecentImports } from './RecentImports';
import { KINDS, MANAGERS_ONLY, toolListQuery, type Tool } from './tools-api';



export default function ToolsPage() {
  const user = useUser();
  const mayManage = atLeast(user.role, 'admin');
  const flagOn = useApiToolsEnabled();
  const tools = useQuery(toolListQuery(user.organization_id));
  return (
    <>
      <PageHeader title="Tools" description="What agents may call: APIs, MCP servers, web search, searches of corpora and the files given in a chat." />
      <ApiToolsFlagNotice />
      {mayManage ? <AddToolLinks apiToolsOn={flagOn === true} /> : <p className="muted">{MANAGERS_ONLY}</p>}
      <ErrorNote error={tools.error} title="The tools could not be loaded." />
      {tools.isPending && <Loading label="Loading the tools…" />}
      {tools.data !== undefined &&
        KINDS.map(({ kind, title }) => <KindSection key={kind} title={title} tools={tools.data.filter((tool) => tool.kind === kind)} />)}
      {mayManage && <RecentImports organizationId={user.organization_id} />}
    </>
  );
}

function AddToolLinks({ apiToolsOn }: { apiToolsOn: boolean }) {
  return (
    <nav className="tool-add" aria-label="Add a tool">
      <span className="field-label">Add</span>
      {apiToolsOn && (
        <>
          <Link className="button button-primary" to="/tools/new/api">
            API tool
          </Link>
          <Link className="button" to="/tools/new/template">
            API tool from a template
          </Link>
          <Link className="button" to="/tools/import">
            Import an OpenAPI document
          </Link>
          <Link className="button" to="/tools/new/mcp">
            MCP server
          </Link>
        </>
      )}
      <Link className="button" to="/tools/new/web-search">
        Web search
      </Link>
      <Link className="button" to="/tools/new/retrieval">
        Retrieval
      </Link>
      <Link className="button" to="/tools/new/attachment">
        Attachments
      </Link>
    </nav>
  );
}

function KindSection({ title, tools }: { title: string; tools: Tool[] }) {
  return (
    <section className="tool-kind" aria-label={title}>
      <h2>{title}</h2>
      {tools.length === 0 ? (
        <Empty>None yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="plain tool-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {tools.map((tool) => (
                <tr key={tool.id}>
                  <th scope="row" data-label="Name">
                    <Link to={`/tools/${tool.id}`}>{tool.name}</Link>
                  </th>
                  <td data-label="Description" className="tool-description">
                    {tool.description}
                  </td>
                  <td data-label="State">
                    <EnabledBadge enabled={tool.enabled} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

// The search box and the project, team and status filters above the agents list. The search is sent
// once typing pauses, not on every key.
import { useEffect, useState } from 'react';
import { Button, Input, Label, SearchField } from 'react-aria-components';
import { ErrorNote } from '../../ui/Feedback';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import type { AgentStatus } from './agentQueries';
import type { AgentListParams } from './useAgentListParams';
import { useProjects, useTeams } from './useAgentChoices';

const SEARCH_PAUSE_MS = 300;
const ANY = 'any';

const STATUSES: readonly AgentStatus[] = ['active', 'inactive', 'draft'];

const STATUS_CHOICES: SelectOption<string>[] = [
  { id: ANY, label: 'Any status' },
  { id: 'active', label: 'Active' },
  { id: 'inactive', label: 'Inactive' },
  { id: 'draft', label: 'Draft' },
];

interface AgentFiltersProps {
  params: AgentListParams;
  onChange: (change: Partial<AgentListParams>) => void;
}

const idOf = (key: string) => (key === ANY ? undefined : Number(key));

export function AgentFilters({ params, onChange }: AgentFiltersProps) {
  const projects = useProjects();
  const teams = useTeams();
  const [text, setText] = useState(params.q);

  // The address may change the search too (the back button, a link): the box follows it, unless the
  // change is the box's own search (which would take away a space just typed).
  useEffect(() => {
    setText((current) => (current.trim() === params.q ? current : params.q));
  }, [params.q]);

  useEffect(() => {
    if (text.trim() === params.q) return;
    const timer = window.setTimeout(() => onChange({ q: text.trim() }), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [text, params.q, onChange]);

  const projectChoices: SelectOption<string>[] = [{ id: ANY, label: 'All projects' }, ...(projects.data ?? []).map((project) => ({ id: String(project.id), label: project.name }))];
  const teamChoices: SelectOption<string>[] = [{ id: ANY, label: 'All teams' }, ...(teams.data ?? []).map((team) => ({ id: String(team.id), label: team.name }))];

  return (
    <div className="agents-filters">
      <SearchField
        className="field agents-search"
        value={text}
        onChange={setText}
        onSubmit={() => onChange({ q: text.trim() })}
        onClear={() => onChange({ q: '' })}
      >
        <Label>Search agents</Label>
        <div className="agents-search-box">
          <Input placeholder="Name or description" />
          {text !== '' && (
            <Button className="button button-quiet icon-button" aria-label="Clear the search">
              ×
            </Button>
          )}
        </div>
      </SearchField>
      <SelectField
        label="Project"
        options={projectChoices}
        value={params.projectId === undefined ? ANY : String(params.projectId)}
        onChange={(key) => onChange({ projectId: idOf(key) })}
      />
      <SelectField label="Team" options={teamChoices} value={params.teamId === undefined ? ANY : String(params.teamId)} onChange={(key) => onChange({ teamId: idOf(key) })} />
      <SelectField
        label="Status"
        options={STATUS_CHOICES}
        value={params.status ?? ANY}
        onChange={(key) => onChange({ status: STATUSES.find((status) => status === key) })}
      />
      <ErrorNote error={projects.error} title="The projects could not be read." />
      <ErrorNote error={teams.error} title="The teams could not be read." />
    </div>
  );
}

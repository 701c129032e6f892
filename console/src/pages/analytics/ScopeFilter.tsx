// What the figures are about: the whole organization, or one agent, corpus, project, team or user.
// Choosing a kind opens the list of that kind; the figures follow once one is chosen.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { corpusChoicesQuery, projectsQuery, teamsQuery } from '../../api/queries';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { SCOPE_KINDS, type Scope, type ScopeKind } from './analyticsParams';
import { agentChoicesQuery, userChoicesQuery, userLabel } from './choices';

type Kind = 'overall' | ScopeKind;
const KIND_LABELS: Record<Kind, string> = { overall: 'Whole organization', agent: 'An agent', corpus: 'A corpus', project: 'A project', team: 'A team', user: 'A user' };
const KIND_NOUNS: Record<ScopeKind, string> = { agent: 'Agent', corpus: 'Corpus', project: 'Project', team: 'Team', user: 'User' };

/** The choices of one kind, read only once that kind is asked for. */
function useChoices(kind: Kind): { options: SelectOption<number>[]; isPending: boolean } {
  const agents = useQuery({ ...agentChoicesQuery(), enabled: kind === 'agent' });
  const corpora = useQuery({ ...corpusChoicesQuery(), enabled: kind === 'corpus' });
  const projects = useQuery({ ...projectsQuery(), enabled: kind === 'project' });
  const teams = useQuery({ ...teamsQuery(), enabled: kind === 'team' });
  const users = useQuery({ ...userChoicesQuery(), enabled: kind === 'user' });
  const named = (items: { id: number; name: string }[] | undefined) => (items ?? []).map((item) => ({ id: item.id, label: item.name }));
  switch (kind) {
    case 'overall':
      return { options: [], isPending: false };
    case 'agent':
      return { options: named(agents.data), isPending: agents.isPending };
    case 'corpus':
      return { options: named(corpora.data), isPending: corpora.isPending };
    case 'project':
      return { options: named(projects.data), isPending: projects.isPending };
    case 'team':
      return { options: named(teams.data), isPending: teams.isPending };
    case 'user':
      return { options: (users.data ?? []).map((user) => ({ id: user.id, label: userLabel(user) })), isPending: users.isPending };
  }
}

export function ScopeFilter({ scope, onChange }: { scope: Scope; onChange: (scope: Scope) => void }) {
  // A kind chosen and none of it yet: held here until one is (the address holds whole scopes only).
  const [kind, setKind] = useState<Kind>(scope.kind);
  useEffect(() => setKind(scope.kind), [scope.kind]);
  const { options, isPending } = useChoices(kind);
  return (
    <>
      <SelectField<Kind>
        label="Figures for"
        options={(['overall', ...SCOPE_KINDS] as const).map((id) => ({ id, label: KIND_LABELS[id] }))}
        value={kind}
        onChange={(next) => {
          setKind(next);
          if (next === 'overall') onChange({ kind: 'overall' });
        }}
      />
      {kind !== 'overall' && (
        <SelectField<number>
          label={KIND_NOUNS[kind]}
          options={options}
          value={scope.kind === kind ? scope.id : null}
          placeholder={isPending ? 'Loading…' : `Choose a${kind === 'agent' ? 'n' : ''} ${kind}`}
          isDisabled={isPending}
          onChange={(id) => onChange({ kind, id })}
        />
      )}
    </>
  );
}

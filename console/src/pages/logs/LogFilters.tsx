// The chat logs' filters: agent, user (only for those who may read others' threads: owners, admins
// and team leads), vote, and the days asked.
import { useQuery } from '@tanstack/react-query';
import { useUser } from '../../session/session';
import { atLeast } from '../../session/permissions';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { agentChoicesQuery, userChoicesQuery, userLabel } from '../analytics/choices';
import { RangeForm } from '../analytics/RangeForm';
import type { LogView, VoteFilter } from './logParams';

const ALL = 0;
const ANY = 'any';
const VOTES: SelectOption<VoteFilter | typeof ANY>[] = [
  { id: ANY, label: 'Any' },
  { id: 'up', label: 'Voted up' },
  { id: 'down', label: 'Voted down' },
];

export function LogFilters({ view, onChange }: { view: LogView; onChange: (change: Partial<LogView>) => void }) {
  const user = useUser();
  const readsOthers = atLeast(user.role, 'admin') || user.teams.some((team) => team.role === 'lead');
  const agents = useQuery(agentChoicesQuery());
  const users = useQuery({ ...userChoicesQuery(), enabled: readsOthers });
  const agentOptions: SelectOption<number>[] = [{ id: ALL, label: 'All agents' }, ...(agents.data ?? []).map((agent) => ({ id: agent.id, label: agent.name }))];
  const userOptions: SelectOption<number>[] = readsOthers
    ? [{ id: ALL, label: 'All users' }, ...(users.data ?? []).map((person) => ({ id: person.id, label: userLabel(person) }))]
    : [{ id: ALL, label: 'Your threads' }];
  return (
    <div className="log-filters" role="group" aria-label="Filters of the chat logs">
      <SelectField label="Agent" options={agentOptions} value={view.agentId ?? ALL} onChange={(id) => onChange({ agentId: id === ALL ? undefined : id })} />
      <SelectField
        label="User"
        options={userOptions}
        value={view.userId ?? ALL}
        isDisabled={!readsOthers}
        description={readsOthers ? undefined : 'Owners, admins and team leads read others’ threads'}
        onChange={(id) => onChange({ userId: id === ALL ? undefined : id })}
      />
      <SelectField label="Vote" options={VOTES} value={view.vote ?? ANY} onChange={(vote) => onChange({ vote: vote === ANY ? undefined : vote })} />
      <RangeForm from={view.from} to={view.to} optional submitLabel="Apply days" onApply={(from, to) => onChange({ from, to })} />
    </div>
  );
}

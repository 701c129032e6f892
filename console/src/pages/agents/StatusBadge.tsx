// An agent's status in a word: active agents answer, inactive ones do not, drafts were never activated.
import type { AgentStatus } from './agentQueries';

const LOOK: Record<AgentStatus, { label: string; className: string }> = {
  active: { label: 'Active', className: 'badge badge-success' },
  inactive: { label: 'Inactive', className: 'badge badge-danger' },
  draft: { label: 'Draft', className: 'badge' },
};

export function StatusBadge({ status }: { status: AgentStatus }) {
  const { label, className } = LOOK[status];
  return <span className={className}>{label}</span>;
}

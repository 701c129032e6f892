// Previous and next through the pages of agents, saying which agents are shown of how many.
import { Button } from '../../ui/Fields';

interface AgentsPagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

export function AgentsPager({ page, pageSize, total, onPage }: AgentsPagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = Math.min(total, (page - 1) * pageSize + 1);
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="agents-pager" aria-label="Pages of agents">
      <Button onPress={() => onPage(page - 1)} isDisabled={page <= 1}>
        Previous
      </Button>
      <span className="muted">
        {first}–{last} of {total} · page {page} of {pages}
      </span>
      <Button onPress={() => onPage(page + 1)} isDisabled={page >= pages}>
        Next
      </Button>
    </nav>
  );
}

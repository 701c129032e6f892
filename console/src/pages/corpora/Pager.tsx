// Previous and next through a paged list, saying where one is; only the count when it fits one page.
import { Button } from '../../ui/Fields';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  /** What the list holds: one, and more than one ("document", "documents"). */
  nouns: [string, string];
  onPage: (page: number) => void;
}

export function Pager({ page, pageSize, total, nouns, onPage }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const count = `${total} ${total === 1 ? nouns[0] : nouns[1]}`;
  if (pages === 1) return <p className="corpora-pager muted">{count}</p>;
  return (
    <nav className="corpora-pager" aria-label={`Pages of ${nouns[1]}`}>
      <Button onPress={() => onPage(page - 1)} isDisabled={page <= 1}>
        Previous
      </Button>
      <span className="muted">
        Page {page} of {pages} · {count}
      </span>
      <Button onPress={() => onPage(page + 1)} isDisabled={page >= pages}>
        Next
      </Button>
    </nav>
  );
}

// Turning the pages of a list as the API pages it (page, page_size, total), saying which items are
// shown of how many; a list that fits one page only says how many it holds.
import { Button } from './Fields';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  /** What the list holds, one and several: ['agent', 'agents']. */
  nouns: readonly [string, string];
  onPage: (page: number) => void;
  /** The navigation's name; "Pages of agents" by default. */
  label?: string;
  /** The buttons' names where the order has its own words (a history, newest first: "Newer", "Older"). */
  previousLabel?: string;
  nextLabel?: string;
}

export function Pager({ page, pageSize, total, nouns, onPage, label = `Pages of ${nouns[1]}`, previousLabel = 'Previous', nextLabel = 'Next' }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const noun = total === 1 ? nouns[0] : nouns[1];
  // Nothing to turn; but an address past the end (?page=9) keeps its way back.
  if (pages === 1 && page <= 1) {
    return (
      <p className="pager muted">
        {total} {noun}
      </p>
    );
  }
  const first = (page - 1) * pageSize + 1;
  const shown = first > total ? `${total} ${noun}` : `${first}–${Math.min(total, page * pageSize)} of ${total} ${noun}`;
  return (
    <nav className="pager" aria-label={label}>
      <Button onPress={() => onPage(page - 1)} isDisabled={page <= 1}>
        {previousLabel}
      </Button>
      <span className="muted">
        {shown} · page {page} of {pages}
      </span>
      <Button onPress={() => onPage(page + 1)} isDisabled={page >= pages}>
        {nextLabel}
      </Button>
    </nav>
  );
}

// Turning the pages of the history as the API pages it (page, page_size, total).
import { Button } from '../../ui/Fields';

interface HistoryPagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

export function HistoryPager({ page, pageSize, total, onPage }: HistoryPagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="history-pager" aria-label="History pages">
      <Button isDisabled={page <= 1} onPress={() => onPage(page - 1)}>
        Newer
      </Button>
      <span>
        Page {page} of {pages} ({total} {total === 1 ? 'record' : 'records'})
      </span>
      <Button isDisabled={page >= pages} onPress={() => onPage(page + 1)}>
        Older
      </Button>
    </nav>
  );
}

// One kind of source on the page (document libraries, mailboxes): its heading and the button that adds
// one, what it is, a notice (a feature off), the list as loaded (or why not, or that it is empty).
import type { ReactNode } from 'react';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';

interface SourcesBlockProps<T extends { id: number }> {
  id: string;
  /** "Document libraries", "Mailboxes": the heading and the list's name. */
  title: string;
  intro: string;
  action: ReactNode;
  notice?: ReactNode;
  list: { data?: { items: T[] }; error: unknown; isPending: boolean };
  empty: string;
  children: (item: T) => ReactNode;
}

export function SourcesBlock<T extends { id: number }>({ id, title, intro, action, notice, list, empty, children }: SourcesBlockProps<T>) {
  return (
    <section className="sources-section" aria-labelledby={`${id}-heading`}>
      <div className="sources-section-head">
        <h2 id={`${id}-heading`}>{title}</h2>
        {action}
      </div>
      <p className="muted">{intro}</p>
      {notice}
      <ErrorNote error={list.error} title={`The ${title.toLowerCase()} could not be loaded.`} />
      {list.isPending && <Loading label={`Loading the ${title.toLowerCase()}…`} />}
      {list.data !== undefined &&
        (list.data.items.length === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <ul className="list source-list" aria-label={title}>
            {list.data.items.map(children)}
          </ul>
        ))}
    </section>
  );
}

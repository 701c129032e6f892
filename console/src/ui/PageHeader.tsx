import type { ReactNode } from 'react';
import { useEffect } from 'react';

/** The page's title (also the document's, so tabs and history say where one is) and its actions. */
export function PageHeader({ title, children, description }: { title: string; children?: ReactNode; description?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Agent Platform`;
  }, [title]);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description !== undefined && <p className="page-description">{description}</p>}
      </div>
      {children !== undefined && <div className="page-actions">{children}</div>}
    </header>
  );
}

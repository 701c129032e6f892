// A plain table of a list page: its column headings (the last one, of a row's actions, named for
// screen readers only), its rows given as children; on a phone the rows stack (each cell's
// data-label names its column).
import type { ReactNode } from 'react';

interface DataTableProps {
  columns: readonly string[];
  /** Whether the rows end with a cell of actions. */
  actions?: boolean;
  /** The table's own class, beside `plain` (its columns' widths, `cards` for rows shown as cards on a phone). */
  className: string;
  /** What the table holds, for screen readers (a visually hidden caption). */
  caption?: string;
  children: ReactNode;
}

export function DataTable({ columns, actions = false, className, caption, children }: DataTableProps) {
  return (
    <div className="table-wrap">
      <table className={`plain ${className}`}>
        {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

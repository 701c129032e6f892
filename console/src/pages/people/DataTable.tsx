// A plain table of the people and organization pages: its column headings (the last one, of a row's
// actions, named for screen readers only), its rows given as children; on a phone the rows stack.
import type { ReactNode } from 'react';

interface DataTableProps {
  columns: readonly string[];
  /** Whether the rows end with a cell of actions. */
  actions?: boolean;
  className?: string;
  children: ReactNode;
}

export function DataTable({ columns, actions = false, className = 'people-table', children }: DataTableProps) {
  return (
    <div className="table-wrap">
      <table className={`plain ${className}`}>
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

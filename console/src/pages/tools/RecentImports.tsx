// The organization's latest imports of OpenAPI documents, each a link to its progress and report.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNote } from '../../ui/Feedback';
import { recentImportsQuery } from './tools-api';

export function RecentImports({ organizationId }: { organizationId: number }) {
  const imports = useQuery(recentImportsQuery(organizationId));
  if (imports.error) return <ErrorNote error={imports.error} title="The imports could not be loaded." />;
  if (imports.data === undefined || imports.data.items.length === 0) return null;
  return (
    <section aria-labelledby="recent-imports">
      <h2 id="recent-imports">Latest imports</h2>
      <ul className="list recent-imports">
        {imports.data.items.map((entry) => (
          <li key={entry.id}>
            <Link to={`/tools/imports/${entry.id}`}>Import #{entry.id}</Link>{' '}
            <span className="muted text-small break-anywhere">
              {entry.url ?? 'a file'} · {entry.status} · {entry.imported} imported, {entry.skipped} skipped · {new Date(entry.created_on).toLocaleString()}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

// What a page shows when it failed to render or to load its code: the error, and a way on.
import { Link, useRouteError } from 'react-router';
import { ErrorNote } from '../ui/Feedback';

export function RouteError() {
  const error = useRouteError();
  return (
    <main className="route-error">
      <h1>Something went wrong</h1>
      <ErrorNote error={error} />
      <p>
        <Link to="/agents" reloadDocument>
          Reload the console
        </Link>
      </p>
    </main>
  );
}

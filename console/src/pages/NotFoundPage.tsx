import { Link } from 'react-router';
import { PageHeader } from '../ui/PageHeader';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        Nothing lives at this address. <Link to="/agents">Go to the agents</Link>.
      </p>
    </>
  );
}

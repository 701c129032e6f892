// People (/organization/people/*): members, teams, projects and API keys.
import { PageHeader } from '../../ui/PageHeader';

export default function PeopleSection() {
  return <PageHeader title="People" />;
}

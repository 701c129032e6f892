// The organization's own settings (/organization): name, logo, configurations, feature flags.
import { PageHeader } from '../../ui/PageHeader';

export default function OrganizationSettings() {
  return <PageHeader title="Organization" />;
}

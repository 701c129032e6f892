// The organization's own settings (/organization): name, logo, configurations, feature flags.
// Everyone reads them; owners and admins change them (the controls of anyone else are disabled, with
// the reason said once at the top).
import { useQuery } from '@tanstack/react-query';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { ConfigurationsSection } from './ConfigurationsSection';
import { FeatureFlagsSection } from './FeatureFlagsSection';
import { LogoSection } from './LogoSection';
import { NameSection } from './NameSection';
import { organizationQuery } from './organization-api';
import './organization-settings.css';

export const ADMIN_REASON = 'Only owners and admins change the organization’s settings.';

export default function OrganizationSettings() {
  const me = useUser();
  const organization = useQuery(organizationQuery(me.organization.id));
  const mayChange = me.role === 'owner' || me.role === 'admin';
  return (
    <>
      <PageHeader title="Organization" description="Your organization’s name, logo, configurations and features." />
      {!mayChange && <p className="note note-info">{ADMIN_REASON} You can see them here.</p>}
      <ErrorNote error={organization.error} title="The organization could not be loaded." />
      {organization.isPending && <Loading label="Loading the organization…" />}
      {organization.data !== undefined && (
        <div className="settings-grid">
          <NameSection organization={organization.data} mayChange={mayChange} />
          <LogoSection organization={organization.data} mayChange={mayChange} />
        </div>
      )}
      <ConfigurationsSection organizationId={me.organization.id} mayChange={mayChange} />
      <FeatureFlagsSection mayChange={mayChange} />
    </>
  );
}

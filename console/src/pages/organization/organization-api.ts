// The organization's own reads: itself (name, logo), its configurations, its feature flags.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Organization = Schemas['Organization'];
export type Configuration = Schemas['Configuration'];
export type FeatureFlag = Schemas['FeatureFlag'];

export const organizationKeys = {
  organization: (organizationId: number) => ['organization', organizationId] as const,
  configurations: (organizationId: number) => ['organization', organizationId, 'configurations'] as const,
  flags: ['feature-flags'] as const,
};

export const organizationQuery = (organizationId: number) =>
  queryOptions({
    queryKey: organizationKeys.organization(organizationId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/organizations/{org_id}', { params: { path: { org_id: organizationId } } }))).data,
  });

export const configurationsQuery = (organizationId: number) =>
  queryOptions({
    queryKey: organizationKeys.configurations(organizationId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/organizations/{org_id}/configurations', { params: { path: { org_id: organizationId }, query: { page_size: 100 } } }))).data,
  });

/** The whole catalogue of flags with their state; also read by pages that offer what a flag gates. */
export const featureFlagsQuery = () =>
  queryOptions({
    queryKey: organizationKeys.flags,
    queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags'))).data.items,
  });

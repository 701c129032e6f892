import type { OrganizationRole } from '../../db/schema.js';

/** Who is calling: resolved from the request's credential (bearer token, API key or session cookie) by AuthService, passed to every service. */
export interface Actor {
  userId: number;
  organizationId: number;
  email: string;
  role: OrganizationRole;
  credential: { kind: 'session' | 'api_key'; id: number };
}

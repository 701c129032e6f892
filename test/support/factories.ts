// Fixtures: organizations, users with a credential, agents. Users and organizations are made
// through the repositories (their HTTP routes come with the people issue); agents through HTTP.
import { now } from '../../src/clock.js';
import type { OrganizationRole } from '../../src/db/schema.js';
import { hashPassword } from '../../src/modules/auth/password.js';
import { OrganizationsRepo } from '../../src/modules/organizations/organizations.repo.js';
import { UsersRepo } from '../../src/modules/users/users.repo.js';
import type { App } from '../../src/app.js';
import { client, type Client } from './http.js';

let sequence = 0;

export interface TestUser {
  id: number;
  email: string;
  organizationId: number;
  role: OrganizationRole;
  token: string;
  api: Client;
}

export async function createOrganization(app: App, name = `Organization ${++sequence}`): Promise<number> {
  return (await new OrganizationsRepo(app.database.db).insert(name, now())).id;
}

/** The organization of the owner made at first start. */
export async function firstOrganizationId(app: App): Promise<number> {
  const owner = await new UsersRepo(app.database.db, app.database.dialect).findByEmail('owner@example.com');
  return owner!.organization_id;
}

export async function createUser(
  app: App,
  options: { organizationId?: number; role?: OrganizationRole; password?: string; email?: string } = {},
): Promise<TestUser> {
  const organizationId = options.organizationId ?? (await firstOrganizationId(app));
  const role = options.role ?? 'member';
  const email = options.email ?? `user${++sequence}.${role}@example.com`;
  const at = now();
  const user = await new UsersRepo(app.database.db, app.database.dialect).insert({
    organization_id: organizationId,
    email,
    first_name: 'Test',
    last_name: role,
    role,
    password_hash: options.password ? await hashPassword(options.password, 10) : null,
    created_on: at,
    modified_on: at,
  });
  const key = await app.services.auth.createApiKey({ userId: user.id, organizationId }, { name: 'test' });
  return { id: user.id, email: user.email, organizationId, role, token: key.key, api: client(app, key.key) };
}

export async function createAgent(user: TestUser, overrides: Record<string, unknown> = {}) {
  const reply = await user.api.post('/api/v2/agents', { name: `Agent ${++sequence}`, instructions: 'Answer from the documents.', ...overrides });
  if (reply.status !== 201) throw new Error(`createAgent: ${reply.status} ${reply.text}`);
  return reply.body.data as { id: number; version: number; name: string; instructions: string; [key: string]: unknown };
}

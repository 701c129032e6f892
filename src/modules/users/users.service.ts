// Users of an organization: listing, inviting, changing and deactivating them. Role changes and
// deactivations run under the organization's lock, so that the organization always keeps an owner.
import { hoursFrom, now } from '../../clock.js';
import type { Config } from '../../config.js';
import type { OrganizationRole } from '../../db/schema.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { authorize, isAdmin } from '../auth/roles.js';
import { generateToken, hashToken } from '../auth/tokens.js';
import { presentUser } from './user.presenter.js';
import { userPolicy } from './user.policy.js';
import type { UserChange, UserFilter, UserWithAudit } from './users.repo.js';
import type { CreateUserInput, UpdateUserInput, UserView } from './users.schemas.js';

export const PASSWORD_TOKEN_PREFIX = 'apw_';

export class UsersService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly config: Config,
  ) {}

  async me(actor: Actor) {
    const { organizations, teams } = this.store.repos;
    const user = await requireUser(this.store.repos, actor, actor.userId);
    const organization = await organizations.findById(actor.organizationId);
    if (!organization) throw new NotFound('organization', actor.organizationId);
    const memberships = await teams.ofUser(actor.organizationId, actor.userId);
    return { ...presentUser(user), organization: { id: organization.id, name: organization.name }, teams: memberships };
  }

  list(actor: Actor, filter: UserFilter, window: ListWindow): Promise<ListSlice<UserView>> {
    return listUsers(this.store.repos, actor.organizationId, filter, window);
  }

  async get(actor: Actor, userId: number): Promise<UserView> {
    return presentUser(await requireUser(this.store.repos, actor, userId));
  }

  /** Invites a user (a one-time set-password token) or creates one with a password. */
  async create(actor: Actor, input: CreateUserInput) {
    const role = input.role ?? 'member';
    authorize(userPolicy.mayInvite(actor, role), role === 'owner' ? 'Only owners may make owners' : 'Only owners and admins may invite users');
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password, this.config.passwordHashCost);
    const at = now();
    return this.store.transaction(async (repos) => {
      const created = await repos.users.insert({
        organization_id: actor.organizationId,
        email: input.email,
        first_name: input.first_name ?? '',
        last_name: input.last_name ?? '',
        role,
        password_hash: passwordHash,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      const token = passwordHash === null ? await this.replacePasswordToken(repos, created.id, at) : undefined;
      return {
        user: presentUser(await requireUser(repos, actor, created.id)),
        set_password_token: token?.set_password_token ?? null,
        set_password_token_expires_on: token?.set_password_token_expires_on ?? null,
      };
    });
  }

  /** A new one-time token for a user who has not set a password or forgot it; earlier tokens stop working. */
  async issuePasswordToken(actor: Actor, userId: number) {
    const user = await requireUser(this.store.repos, actor, userId);
    authorize(userPolicy.mayIssuePasswordToken(actor, user), 'Only owners and admins issue set-password tokens, and only owners for owners');
    if (user.deactivated_on !== null) throw new Conflict(`User ${userId} is deactivated`);
    return this.store.transaction((repos) => this.replacePasswordToken(repos, userId, now()));
  }

  private async replacePasswordToken(repos: Repositories, userId: number, at: string) {
    const token = generateToken(PASSWORD_TOKEN_PREFIX);
    const expiresOn = hoursFrom(at, this.config.passwordTokenTtlHours);
    await repos.passwordTokens.replace(userId, hashToken(token), at, expiresOn);
    return { set_password_token: token, set_password_token_expires_on: expiresOn };
  }

  /** Public: sets the password a token was issued for. The token, and every session of the user, stop working. */
  async setPasswordWithToken(token: string, password: string): Promise<UserView> {
    const passwordHash = await hashPassword(password, this.config.passwordHashCost);
    const at = now();
    return this.store.transaction(async (repos) => {
      const owner = await repos.passwordTokens.findUser(hashToken(token), at);
      if (!owner) throw new BadRequest('The token is invalid, expired or already used', [{ pointer: '/body/token', message: 'is invalid, expired or already used' }]);
      await repos.users.update(owner.organization_id, owner.user_id, { password_hash: passwordHash, modified_on: at, modified_by: owner.user_id });
      await repos.passwordTokens.deleteForUser(owner.user_id);
      await repos.auth.deleteSessionsOfUser(owner.user_id);
      const user = await repos.users.findInOrganization(owner.organization_id, owner.user_id);
      return presentUser(user!);
    });
  }

  async update(actor: Actor, userId: number, input: UpdateUserInput): Promise<UserView> {
    const target = await requireUser(this.store.repos, actor, userId);
    const fields: UserChange = {};
    if (input.first_name !== undefined || input.last_name !== undefined) {
      authorize(userPolicy.mayChangeName(actor, target), 'Only the user, an owner or an admin may change this name');
      Object.assign(fields, sentFields(input, ['first_name', 'last_name']));
    }
    if (input.email !== undefined && input.email.toLowerCase() !== target.email) {
      authorize(userPolicy.mayChangeEmail(actor, target), 'Only owners and admins change e-mail addresses, and only owners those of owners');
      fields.email = input.email;
    }
    if (input.role !== undefined && input.role !== target.role) {
      authorize(userPolicy.mayGrantRole(actor, target, input.role), roleRefusal(actor, target, input.role));
      fields.role = input.role;
    }
    if (input.password !== undefined) {
      authorize(userPolicy.mayChangePassword(actor, target), 'Only the user may change their password; issue a set-password token instead');
      await this.checkCurrentPassword(target, input.current_password);
      fields.password_hash = await hashPassword(input.password, this.config.passwordHashCost);
    }
    if (Object.keys(fields).length === 0) return presentUser(target);
    return this.store.transaction(async (repos) => {
      await repos.organizations.lock(actor.organizationId);
      await repos.users.update(actor.organizationId, userId, { ...fields, modified_on: now(), modified_by: actor.userId });
      await requireAnOwner(repos, actor.organizationId);
      // A new password ends the user's other sessions; the one making the change goes on.
      if (fields.password_hash !== undefined) {
        await repos.auth.deleteSessionsOfUser(userId, actor.credential.kind === 'session' ? actor.credential.id : undefined);
      }
      return presentUser(await requireUser(repos, actor, userId));
    });
  }

  /** Deactivates a user: every session and API key of theirs stops working at once. Repeating it changes nothing. */
  async deactivate(actor: Actor, userId: number): Promise<UserView> {
    const target = await requireUser(this.store.repos, actor, userId);
    authorize(userPolicy.mayDeactivate(actor, target), actor.userId === userId ? 'Users may not deactivate themselves' : 'Only owners and admins deactivate users, and only owners deactivate owners');
    if (target.deactivated_on !== null) return presentUser(target);
    return this.store.transaction(async (repos) => {
      await repos.organizations.lock(actor.organizationId);
      const at = now();
      await repos.users.update(actor.organizationId, userId, { deactivated_on: at, modified_on: at, modified_by: actor.userId });
      await requireAnOwner(repos, actor.organizationId);
      await repos.auth.deleteSessionsOfUser(userId);
      await repos.passwordTokens.deleteForUser(userId);
      return presentUser(await requireUser(repos, actor, userId));
    });
  }

  private async checkCurrentPassword(target: UserWithAudit, currentPassword: string | undefined): Promise<void> {
    if (target.password_hash === null) return;
    if (currentPassword === undefined) {
      throw new BadRequest('current_password is required to change the password', [{ pointer: '/body/current_password', message: 'is required' }]);
    }
    if (!(await verifyPassword(currentPassword, target.password_hash))) {
      throw new BadRequest('current_password is not the current password', [{ pointer: '/body/current_password', message: 'is wrong' }]);
    }
  }
}

async function requireUser(repos: Repositories, actor: Actor, userId: number): Promise<UserWithAudit> {
  const user = await repos.users.findInOrganization(actor.organizationId, userId);
  if (!user) throw new NotFound('user', userId);
  return user;
}

/** Inside the transaction that demoted or deactivated someone: undo it if no active owner is left. */
async function requireAnOwner(repos: Repositories, organizationId: number): Promise<void> {
  if ((await repos.users.countActiveOwners(organizationId)) === 0) {
    throw new Conflict('The organization must keep an active owner; make another user owner first');
  }
}

/** The organization's users, presented; the organizations module lists them too. */
export async function listUsers(repos: Repositories, organizationId: number, filter: UserFilter, window: ListWindow): Promise<ListSlice<UserView>> {
  const { items, total } = await repos.users.list(organizationId, filter, window);
  return { items: items.map(presentUser), total };
}

function roleRefusal(actor: Actor, target: UserWithAudit, role: OrganizationRole): string {
  if (!isAdmin(actor)) return 'Only owners and admins change roles';
  if (role === 'owner' || target.role === 'owner') return 'Only owners make owners or change the role of an owner';
  return 'Users may not raise their own role';
}

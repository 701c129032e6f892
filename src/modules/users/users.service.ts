// Users of an organization: listing, inviting, changing and deactivating them. Role changes and
// deactivations run under the organization's lock, so that the organization always keeps an owner.
import { hoursFrom, now } from '../../clock.js';
import type { Kysely, Updateable } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { DB, OrganizationRole, UsersTable } from '../../db/schema.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Actor } from '../auth/actor.js';
import { AuthRepo } from '../auth/auth.repo.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { authorize, isAdmin } from '../auth/roles.js';
import { generateToken, hashToken } from '../auth/tokens.js';
import { OrganizationsRepo } from '../organizations/organizations.repo.js';
import { TeamsRepo } from '../teams/teams.repo.js';
import { PasswordTokensRepo } from './password-tokens.repo.js';
import { presentUser } from './user.presenter.js';
import { userPolicy } from './user.policy.js';
import { UsersRepo, type UserFilter, type UserWithAudit } from './users.repo.js';
import type { CreateUserInput, UpdateUserInput, UserView } from './users.schemas.js';

export const PASSWORD_TOKEN_PREFIX = 'apw_';

export class UsersService {
  constructor(
    private readonly database: Database,
    private readonly config: Config,
  ) {}

  private repo(db: Kysely<DB> = this.database.db) {
    return new UsersRepo(db, this.database.dialect);
  }

  private async requireUser(actor: Actor, userId: number, db?: Kysely<DB>): Promise<UserWithAudit> {
    const user = await this.repo(db).findInOrganization(actor.organizationId, userId);
    if (!user) throw new NotFound('user', userId);
    return user;
  }

  async me(actor: Actor) {
    const user = await this.requireUser(actor, actor.userId);
    const organization = await new OrganizationsRepo(this.database.db).findById(actor.organizationId);
    if (!organization) throw new NotFound('organization', actor.organizationId);
    const teams = await new TeamsRepo(this.database.db, this.database.dialect).ofUser(actor.organizationId, actor.userId);
    return { ...presentUser(user), organization: { id: organization.id, name: organization.name }, teams };
  }

  async list(actor: Actor, filter: UserFilter, window: ListWindow): Promise<ListSlice<UserView>> {
    const { rows, total } = await this.repo().list(actor.organizationId, filter, window);
    return { items: rows.map(presentUser), total };
  }

  async get(actor: Actor, userId: number): Promise<UserView> {
    return presentUser(await this.requireUser(actor, userId));
  }

  /** Invites a user (a one-time set-password token) or creates one with a password. */
  async create(actor: Actor, input: CreateUserInput) {
    const role = input.role ?? 'member';
    authorize(userPolicy.mayInvite(actor, role), role === 'owner' ? 'Only owners may make owners' : 'Only owners and admins may invite users');
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password, this.config.passwordHashCost);
    const at = now();
    return this.database.db.transaction().execute(async (trx) => {
      const created = await this.repo(trx).insert({
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
      const token = passwordHash === null ? await this.replacePasswordToken(trx, created.id, at) : undefined;
      return {
        user: presentUser(await this.requireUser(actor, created.id, trx)),
        set_password_token: token?.set_password_token ?? null,
        set_password_token_expires_on: token?.set_password_token_expires_on ?? null,
      };
    });
  }

  /** A new one-time token for a user who has not set a password or forgot it; earlier tokens stop working. */
  async issuePasswordToken(actor: Actor, userId: number) {
    const user = await this.requireUser(actor, userId);
    authorize(userPolicy.mayIssuePasswordToken(actor, user), 'Only owners and admins issue set-password tokens, and only owners for owners');
    if (user.deactivated_on !== null) throw new Conflict(`User ${userId} is deactivated`);
    return this.database.db.transaction().execute((trx) => this.replacePasswordToken(trx, userId, now()));
  }

  private async replacePasswordToken(trx: Kysely<DB>, userId: number, at: string) {
    const token = generateToken(PASSWORD_TOKEN_PREFIX);
    const expiresOn = hoursFrom(at, this.config.passwordTokenTtlHours);
    await new PasswordTokensRepo(trx).replace(userId, hashToken(token), at, expiresOn);
    return { set_password_token: token, set_password_token_expires_on: expiresOn };
  }

  /** Public: sets the password a token was issued for. The token, and every session of the user, stop working. */
  async setPasswordWithToken(token: string, password: string): Promise<UserView> {
    const passwordHash = await hashPassword(password, this.config.passwordHashCost);
    const at = now();
    return this.database.db.transaction().execute(async (trx) => {
      const tokens = new PasswordTokensRepo(trx);
      const owner = await tokens.findUser(hashToken(token), at);
      if (!owner) throw new BadRequest('The token is invalid, expired or already used', [{ pointer: '/body/token', message: 'is invalid, expired or already used' }]);
      await this.repo(trx).update(owner.organization_id, owner.user_id, { password_hash: passwordHash, modified_on: at, modified_by: owner.user_id });
      await tokens.deleteForUser(owner.user_id);
      await new AuthRepo(trx).deleteSessionsOfUser(owner.user_id);
      const user = await this.repo(trx).findInOrganization(owner.organization_id, owner.user_id);
      return presentUser(user!);
    });
  }

  async update(actor: Actor, userId: number, input: UpdateUserInput): Promise<UserView> {
    const target = await this.requireUser(actor, userId);
    const fields: Updateable<UsersTable> = {};
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
    return this.database.db.transaction().execute(async (trx) => {
      await new OrganizationsRepo(trx).lock(actor.organizationId);
      await this.repo(trx).update(actor.organizationId, userId, { ...fields, modified_on: now(), modified_by: actor.userId });
      await this.requireAnOwner(trx, actor.organizationId);
      // A new password ends the user's other sessions; the one making the change goes on.
      if (fields.password_hash !== undefined) {
        await new AuthRepo(trx).deleteSessionsOfUser(userId, actor.credential.kind === 'session' ? actor.credential.id : undefined);
      }
      return presentUser(await this.requireUser(actor, userId, trx));
    });
  }

  /** Deactivates a user: every session and API key of theirs stops working at once. Repeating it changes nothing. */
  async deactivate(actor: Actor, userId: number): Promise<UserView> {
    const target = await this.requireUser(actor, userId);
    authorize(userPolicy.mayDeactivate(actor, target), actor.userId === userId ? 'Users may not deactivate themselves' : 'Only owners and admins deactivate users, and only owners deactivate owners');
    if (target.deactivated_on !== null) return presentUser(target);
    return this.database.db.transaction().execute(async (trx) => {
      await new OrganizationsRepo(trx).lock(actor.organizationId);
      const at = now();
      await this.repo(trx).update(actor.organizationId, userId, { deactivated_on: at, modified_on: at, modified_by: actor.userId });
      await this.requireAnOwner(trx, actor.organizationId);
      await new AuthRepo(trx).deleteSessionsOfUser(userId);
      await new PasswordTokensRepo(trx).deleteForUser(userId);
      return presentUser(await this.requireUser(actor, userId, trx));
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

  /** Inside the transaction that demoted or deactivated someone: undo it if no active owner is left. */
  private async requireAnOwner(trx: Kysely<DB>, organizationId: number): Promise<void> {
    if ((await this.repo(trx).countActiveOwners(organizationId)) === 0) {
      throw new Conflict('The organization must keep an active owner; make another user owner first');
    }
  }
}

function roleRefusal(actor: Actor, target: UserWithAudit, role: OrganizationRole): string {
  if (!isAdmin(actor)) return 'Only owners and admins change roles';
  if (role === 'owner' || target.role === 'owner') return 'Only owners make owners or change the role of an owner';
  return 'Users may not raise their own role';
}

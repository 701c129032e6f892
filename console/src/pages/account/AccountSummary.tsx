// Who the signed-in user is in the organization: e-mail, role (and what it allows), organization
// and teams. Changing the role or e-mail is for owners and admins (docs/authorization.md), so it is
// only shown here.
import type { CurrentUser, Role } from '../../session/session';

const ROLE_ALLOWS: Record<Role, string> = {
  owner: 'Manages the organization, its settings and all its users, owners included.',
  admin: 'Manages the organization, its settings and its users (except owners).',
  member: 'Creates agents, teams and projects; reads everything of the organization.',
  viewer: 'Reads everything of the organization and changes none of it; their own name, password and stars are theirs to change.',
};

export function AccountSummary({ user }: { user: CurrentUser }) {
  return (
    <section className="card summary" aria-labelledby="profile-summary-title">
      <h2 id="profile-summary-title">Account</h2>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
        <dt>Role</dt>
        <dd>
          <span className="badge">{user.role}</span>
          <span className="role-reason">{ROLE_ALLOWS[user.role]} An owner or admin changes roles and e-mail addresses.</span>
        </dd>
        <dt>Organization</dt>
        <dd>{user.organization.name}</dd>
        <dt>Teams</dt>
        <dd>{user.teams.length === 0 ? 'None' : user.teams.map((team) => `${team.name} (${team.role})`).join(', ')}</dd>
      </dl>
    </section>
  );
}

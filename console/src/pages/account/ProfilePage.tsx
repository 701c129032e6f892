// The signed-in user's profile (/profile): who they are in the organization, their name, their password.
import { useUser } from '../../session/session';
import { PageHeader } from '../../ui/PageHeader';
import { AccountSummary } from './AccountSummary';
import { NameForm } from './NameForm';
import { PasswordForm } from './PasswordForm';
import './account.css';

export default function ProfilePage() {
  const user = useUser();
  return (
    <>
      <PageHeader title="Your profile" description={user.email} />
      <div className="profile-sections">
        <AccountSummary user={user} />
        <section className="card">
          <NameForm user={user} />
        </section>
        <section className="card">
          <PasswordForm user={user} />
        </section>
      </div>
    </>
  );
}

// The members of a team or a project, as both pages show them: a form to add someone (for those who
// may), then the members' table, or why there is none. The routes differ (a team's members have a
// role and are read on their own; a project's users come with it): each page gives its form and rows,
// each row starting with the member's name cell below.
import type { ReactNode } from 'react';
import { DataTable } from '../../ui/DataTable';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';

interface MembersSectionProps<Member> {
  noun: 'team' | 'project';
  /** The form to add a member; null for those who may not. */
  addForm: ReactNode;
  /** The members once read (undefined while they are read or when they could not be). */
  members: Member[] | undefined;
  isPending?: boolean;
  error?: Error | null;
  /** The columns after the member's name, before the actions. */
  columns: readonly string[];
  row: (member: Member) => ReactNode;
}

export function MembersSection<Member>({ noun, addForm, members, isPending = false, error = null, columns, row }: MembersSectionProps<Member>) {
  const headingId = `${noun}-members-heading`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Members</h2>
      {addForm}
      <ErrorNote error={error} title="The members could not be loaded." />
      {isPending && <Loading label="Loading the members…" />}
      {members !== undefined &&
        (members.length === 0 ? (
          <Empty>No members yet.</Empty>
        ) : (
          <DataTable columns={['Member', ...columns]} actions className="people-table">
            {members.map(row)}
          </DataTable>
        ))}
    </section>
  );
}

/** An e-mail that, too long for its line (a phone's card), breaks before its @ rather than inside a word. */
function BreakableEmail({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/** The first cell of a member's row: their name with the e-mail under it (the e-mail alone when they have no name). */
export function MemberNameCell({ name, email, isActive = true }: { name: string; email: string; isActive?: boolean }) {
  return (
    <th scope="row">
      {name === '' ? <BreakableEmail email={email} /> : name}
      {name !== '' && (
        <span className="muted text-small text-block">
          <BreakableEmail email={email} />
        </span>
      )}
      {!isActive && <span className="badge">Deactivated</span>}
    </th>
  );
}

// The members of a team or a project, as both pages show them: a form to add someone (for those who
// may), then the members' table, or why there is none. The routes differ (a team's members have a
// role and are read on their own; a project's users come with it): each page gives its form and rows.
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

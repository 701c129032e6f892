// The organization's members (GET /api/v2/users): found by name or e-mail, a page at a time; invited,
// given another role, sent a new set-password link, deactivated (DELETE: the record stays, marked
// inactive, and the person's sessions and API keys stop working at once).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { useUser } from '../../session/session';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { DisabledWithReason } from './DisabledWithReason';
import { InviteDialog } from './InviteDialog';
import { INVITE_REASON, mayInvite } from './member-permissions';
import { MemberRow } from './MemberRow';
import { PAGE_SIZE, usersQuery } from './people-api';
import { DataTable } from '../../ui/DataTable';

export function MembersPage() {
  const me = useUser();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const users = useQuery(usersQuery(page, q.trim()));
  return (
    <>
      <PageHeader title="Members" description="Everyone in your organization, with their role.">
        {mayInvite(me) ? (
          <InviteDialog />
        ) : (
          <DisabledWithReason label="Invite member" reason={INVITE_REASON} />
        )}
      </PageHeader>
      <SearchField
        className="field people-filter"
        value={q}
        onChange={(value) => {
          setQ(value);
          setPage(1);
        }}
      >
        <Label>Find by name or e-mail</Label>
        <Input />
      </SearchField>
      <ErrorNote error={users.error} title="The members could not be loaded." />
      {users.isPending && <Loading label="Loading the members…" />}
      {users.data !== undefined &&
        (users.data.items.length === 0 ? (
          <Empty>No member matches.</Empty>
        ) : (
          <>
            <DataTable columns={['Name', 'E-mail', 'Role', 'Status']} actions className="people-table">
              {users.data.items.map((member) => (
                <MemberRow key={member.id} member={member} />
              ))}
            </DataTable>
            <Pager page={page} pageSize={PAGE_SIZE} total={users.data.total} nouns={['member', 'members']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

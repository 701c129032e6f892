// Sources (/organization/sources): document libraries and mailboxes linked to corpora, each with its
// last sync (counts, errors), "Sync now" and "Remove". A mailbox's consent at its provider ends back
// here, with what became of it (LinkOutcome).
import { useQuery } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { PageHeader } from '../../ui/PageHeader';
import { LibrariesSection } from './LibrariesSection';
import { LinkOutcome } from './LinkOutcome';
import { MailboxesSection } from './MailboxesSection';
import { mailboxesQuery } from './sources-api';
import './sources.css';

function SourcesPage() {
  const mailboxes = useQuery(mailboxesQuery());
  return (
    <>
      <PageHeader title="Sources" description="Document libraries and mailboxes that keep corpora filled: synced on a schedule or when asked." />
      <LinkOutcome mailboxes={mailboxes.data?.items} />
      <LibrariesSection />
      <MailboxesSection mailboxes={mailboxes} />
    </>
  );
}

export default function SourcesSection() {
  return (
    <Routes>
      <Route index element={<SourcesPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

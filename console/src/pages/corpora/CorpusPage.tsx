// One corpus: its documents (added, followed live as they are processed, tagged, deleted), a search
// as its agents would make it, and who has access. What the caller's permission on the corpus does
// not allow is not offered, and the page says why.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { corpusQuery, mayOnCorpus, type Corpus } from './corpus-api';
import { CorpusSummary } from './CorpusSummary';
import { DeleteCorpusButton } from './DeleteCorpusButton';
import { DocumentsSection } from './documents/DocumentsSection';
import { useDocumentProgress } from './documents/useDocumentProgress';
import { PermissionsSection } from './permissions/PermissionsSection';
import { SearchSection } from './search/SearchSection';
import { UploadPanel, useUploadQueue } from './upload/UploadPanel';
import './corpora.css';

type TabId = 'documents' | 'search' | 'access';

export default function CorpusPage() {
  const { corpusId: param } = useParams();
  const corpusId = Number(param);
  if (!Number.isSafeInteger(corpusId) || corpusId <= 0) {
    return (
      <>
        <PageHeader title="Corpus not found" />
        <p>
          There is no corpus at this address. <Link to="/corpora">All corpora</Link>
        </p>
      </>
    );
  }
  // A page of its own per corpus: its uploads and live status are not carried to another.
  return <CorpusView key={corpusId} corpusId={corpusId} />;
}

function CorpusView({ corpusId }: { corpusId: number }) {
  const corpus = useQuery(corpusQuery(corpusId));
  if (corpus.isPending) return <Loading label="Loading the corpus…" />;
  if (corpus.isError) {
    return (
      <>
        <PageHeader title="Corpus" />
        <ErrorNote error={corpus.error} />
        <Link to="/corpora">All corpora</Link>
      </>
    );
  }
  return <CorpusContent corpus={corpus.data} />;
}

function accessNote(corpus: Corpus): string | null {
  if (corpus.permission === 'read') {
    return 'You can read this corpus: see its documents and search it. Adding, tagging or deleting documents needs write permission; ask someone who manages it.';
  }
  return null;
}

function CorpusContent({ corpus }: { corpus: Corpus }) {
  const progress = useDocumentProgress(corpus.id);
  const uploads = useUploadQueue(corpus.id);
  const [searchParams, setSearchParams] = useSearchParams();
  const mayWrite = mayOnCorpus(corpus.permission, 'write');
  const mayManage = mayOnCorpus(corpus.permission, 'manage');
  const requested = searchParams.get('tab');
  const tab: TabId = requested === 'search' || (requested === 'access' && mayManage) ? requested : 'documents';
  const note = accessNote(corpus);

  return (
    <>
      <PageHeader title={corpus.name} description={corpus.description === '' ? undefined : corpus.description}>
        {mayManage && <DeleteCorpusButton corpus={corpus} />}
      </PageHeader>
      <p className="corpus-breadcrumb">
        <Link to="/corpora">All corpora</Link>
      </p>
      <CorpusSummary corpus={corpus} />
      {note !== null && <p className="note note-info">{note}</p>}
      <Tabs
        selectedKey={tab}
        onSelectionChange={(key: Key) => setSearchParams(key === 'documents' ? {} : { tab: String(key) }, { replace: true })}
        className="tabs"
      >
        <TabList aria-label="Parts of the corpus">
          <Tab id="documents">Documents</Tab>
          <Tab id="search">Search</Tab>
          {mayManage && <Tab id="access">Who has access</Tab>}
        </TabList>
        <TabPanel id="documents">
          {mayWrite && <UploadPanel queue={uploads} />}
          <DocumentsSection corpusId={corpus.id} progress={progress} mayWrite={mayWrite} />
        </TabPanel>
        <TabPanel id="search">
          <SearchSection corpusId={corpus.id} />
        </TabPanel>
        {mayManage && (
          <TabPanel id="access">
            <PermissionsSection corpusId={corpus.id} />
          </TabPanel>
        )}
      </Tabs>
    </>
  );
}

// The document libraries connected to corpora, each with its last sync; adding one. Adding and
// syncing need the document-library-index feature on: while it is off, that is said and the buttons
// wait (the server would answer 403 all the same).
import { useQuery } from '@tanstack/react-query';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { NewConnectorDialog } from './NewConnectorDialog';
import { SourceCard } from './SourceCard';
import { connectorsQuery, libraryFlagQuery, removeConnector, syncConnector, type Connector } from './sources-api';
import { useWritableCorpora } from './useWritableCorpora';

const FLAG_OFF = 'Document-library indexing is off for this organization: owners and admins turn it on under Settings, Feature flags.';

function libraryOf(connector: Connector): string {
  const library = connector.drive_id !== null ? `Drive ${connector.drive_id}` : `Site ${connector.site_id ?? ''}`;
  return connector.folder_path !== null ? `${library}, folder ${connector.folder_path}.` : `${library}, the whole library.`;
}

export function LibrariesSection() {
  const connectors = useQuery(connectorsQuery());
  const flag = useQuery(libraryFlagQuery());
  const corpora = useWritableCorpora();
  const blocked = flag.data === false ? FLAG_OFF : null;
  return (
    <section className="sources-section" aria-labelledby="libraries-heading">
      <div className="sources-section-head">
        <h2 id="libraries-heading">Document libraries</h2>
        <NewConnectorDialog blocked={blocked} />
      </div>
      <p className="muted">SharePoint and OneDrive libraries, synced into a corpus through Microsoft Graph with an app registration.</p>
      {blocked !== null && (
        <p id="library-blocked" className="note note-info">
          {blocked}
        </p>
      )}
      <ErrorNote error={flag.error} title="Whether document libraries are on could not be read." />
      <ErrorNote error={connectors.error} title="The document libraries could not be loaded." />
      {connectors.isPending && <Loading label="Loading the document libraries…" />}
      {connectors.data !== undefined &&
        (connectors.data.items.length === 0 ? (
          <Empty>No document library is connected yet.</Empty>
        ) : (
          <ul className="list source-list" aria-label="Document libraries">
            {connectors.data.items.map((connector) => (
              <SourceCard
                key={connector.id}
                title={connector.name}
                noun="document library"
                details={libraryOf(connector)}
                corpus={{ id: connector.corpus_id, name: corpora.nameOf(connector.corpus_id) }}
                sync={connector.last_sync}
                nextSyncOn={connector.next_sync_on}
                syncBlocked={blocked}
                requestSync={() => syncConnector(connector.id)}
                remove={() => removeConnector(connector.id)}
                removeConsequence="Its pending syncs go with it; the documents it brought in stay in the corpus."
              />
            ))}
          </ul>
        ))}
    </section>
  );
}

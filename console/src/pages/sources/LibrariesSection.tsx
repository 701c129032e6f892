// The document libraries connected to corpora, each with its last sync; adding one. Adding and
// syncing need the document-library-index feature on: while it is off, that is said and the buttons
// wait (the server would answer 403 all the same).
import { useQuery } from '@tanstack/react-query';
import { ErrorNote } from '../../ui/Feedback';
import { NewConnectorDialog } from './NewConnectorDialog';
import { SourceCard } from './SourceCard';
import { SourcesBlock } from './SourcesBlock';
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
  const syncBlocked = flag.data === false ? FLAG_OFF : null;
  const blocked = syncBlocked ?? corpora.blocked;
  return (
    <SourcesBlock
      id="libraries"
      title="Document libraries"
      intro="SharePoint and OneDrive libraries, synced into a corpus through Microsoft Graph with an app registration."
      action={<NewConnectorDialog blocked={blocked} />}
      notice={
        <>
          {blocked !== null && (
            <p id="library-blocked" className="note note-info">
              {blocked}
            </p>
          )}
          <ErrorNote error={flag.error} title="Whether document libraries are on could not be read." />
        </>
      }
      list={connectors}
      empty="No document library is connected yet."
    >
      {(connector) => (
        <SourceCard
          key={connector.id}
          title={connector.name}
          noun="document library"
          details={libraryOf(connector)}
          corpus={{ id: connector.corpus_id, name: corpora.nameOf(connector.corpus_id) }}
          sync={connector.last_sync}
          nextSyncOn={connector.next_sync_on}
          syncBlocked={syncBlocked}
          requestSync={() => syncConnector(connector.id)}
          remove={() => removeConnector(connector.id)}
          removeConsequence="Its pending syncs go with it; the documents it brought in stay in the corpus."
        />
      )}
    </SourcesBlock>
  );
}

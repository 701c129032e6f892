// The corpora the caller can see (owners and admins: all of the organization's; anyone else: those
// shared with them), found by name, a page at a time; creating one; deleting one.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { Link } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { corporaQuery, mayOnCorpus, PAGE_SIZE, type Corpus } from './corpus-api';
import { DeleteCorpusButton } from './DeleteCorpusButton';
import { NewCorpusDialog } from './NewCorpusDialog';
import './corpora.css';
import { DataTable } from '../../ui/DataTable';

const VIEWER_CANNOT_CREATE = 'Viewers cannot create corpora; ask an admin for the member role.';

export default function CorporaPage() {
  const user = useUser();
  const mayCreate = atLeast(user.role, 'member');
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const corpora = useQuery(corporaQuery(page, name.trim()));

  return (
    <>
      <PageHeader title="Corpora" description="Collections of documents that agents answer from.">
        {mayCreate ? (
          <NewCorpusDialog />
        ) : (
          <div className="disabled-with-reason">
            <Button variant="primary" isDisabled aria-describedby="create-reason">
              New corpus
            </Button>
            <p id="create-reason" className="muted text-small">
              {VIEWER_CANNOT_CREATE}
            </p>
          </div>
        )}
      </PageHeader>
      <SearchField
        className="field corpora-name-filter"
        value={name}
        onChange={(value) => {
          setName(value);
          setPage(1);
        }}
      >
        <Label>Find by name</Label>
        <Input />
      </SearchField>
      <ErrorNote error={corpora.error} title="The corpora could not be loaded." />
      {corpora.isPending && <Loading label="Loading the corpora…" />}
      {corpora.data !== undefined &&
        (corpora.data.items.length === 0 ? (
          <Empty>{name.trim() !== '' ? 'No corpus has this in its name.' : mayCreate ? 'No corpora yet. Create one to add documents.' : 'No corpus is shared with you yet.'}</Empty>
        ) : (
          <>
            <CorporaTable corpora={corpora.data.items} />
            <Pager page={page} pageSize={PAGE_SIZE} total={corpora.data.total} nouns={['corpus', 'corpora']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

function CorporaTable({ corpora }: { corpora: Corpus[] }) {
  return (
    <DataTable columns={['Name', 'Documents', 'Indexed', 'Failed']} actions className="corpora-table">
      {corpora.map((corpus) => (
        <tr key={corpus.id}>
          <th scope="row" data-label="Name">
            <Link to={`/corpora/${corpus.id}`}>{corpus.name}</Link>
            {corpus.description !== '' && <span className="muted text-small text-block">{corpus.description}</span>}
          </th>
          <td data-label="Documents">{corpus.document_counts.total}</td>
          <td data-label="Indexed">{corpus.document_counts.indexed}</td>
          <td data-label="Failed" className={corpus.document_counts.failed > 0 ? 'count-failed' : undefined}>
            {corpus.document_counts.failed}
          </td>
          <td data-label="Actions">{mayOnCorpus(corpus.permission, 'manage') && <DeleteCorpusButton corpus={corpus} compact />}</td>
        </tr>
      ))}
    </DataTable>
  );
}

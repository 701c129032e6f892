// A citation mark "[1]" in an answer: a button named for its source, opening the passage the answer
// drew on, its document and corpus.
import { useQuery } from '@tanstack/react-query';
import { Button as AriaButton, Dialog, DialogTrigger, Heading, Link, Popover } from 'react-aria-components';
import { corpusQuery } from '../corpora/corpus-api';
import type { Citation } from './responseTypes';

export function CitationButton({ citation }: { citation: Citation }) {
  return (
    <DialogTrigger>
      <AriaButton className="citation-mark" aria-label={`Source ${citation.number}: ${citation.source}`}>
        [{citation.number}]
      </AriaButton>
      <Popover className="react-aria-Popover citation-popover" placement="bottom">
        <Dialog className="citation-dialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="citation-title">
                Source {citation.number}: {citation.source}
              </Heading>
              <CitationDetails citation={citation} />
              <div className="dialog-actions">
                <AriaButton className="button button-secondary" onPress={close}>
                  Close
                </AriaButton>
              </div>
            </>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

function CitationDetails({ citation }: { citation: Citation }) {
  // Only fetched once a citation is opened; many answers cite the same few corpora.
  const corpusName = useQuery({ ...corpusQuery(citation.corpus_id), staleTime: 5 * 60_000, select: (corpus) => corpus.name }).data ?? `Corpus ${citation.corpus_id}`;
  return (
    <>
      <dl className="citation-facts">
        <dt>Document</dt>
        <dd>
          {citation.source}
          {citation.page !== null && `, page ${citation.page}`}
        </dd>
        <dt>Corpus</dt>
        <dd>
          <Link href={`/corpora/${citation.corpus_id}`}>{corpusName}</Link>
        </dd>
        <dt>Relevance</dt>
        <dd>{citation.score.toFixed(2)}</dd>
      </dl>
      <blockquote className="citation-passage">
        {citation.passage}
      </blockquote>
    </>
  );
}

// Searching the corpus as its agents do (POST …/search): the passages they would be given, best
// first, each with its document and score.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Form, Input, Label, SearchField } from 'react-aria-components';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import { searchQuery, type Passage } from '../corpus-api';

const MODE_TEXT = { full_text: 'Found by full-text search', hybrid: 'Found by full-text and vector search' } as const;

export function SearchSection({ corpusId }: { corpusId: number }) {
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const results = useQuery(searchQuery(corpusId, query));

  return (
    <section aria-labelledby="search-heading" className="search-section">
      <h2 id="search-heading">Search</h2>
      <p className="muted">The passages an agent connected to this corpus would be given for this question.</p>
      <Form
        className="corpus-search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const asked = typed.trim();
          // The same question again: ask again (documents may have been indexed since).
          if (asked === query) void results.refetch();
          else setQuery(asked);
        }}
      >
        <SearchField className="field corpus-search-field" value={typed} onChange={setTyped} onClear={() => setQuery('')}>
          <Label>Search the corpus</Label>
          <Input placeholder="A question or a few words" />
        </SearchField>
        <Button type="submit" variant="primary" isDisabled={typed.trim() === ''}>
          Search
        </Button>
      </Form>
      <ErrorNote error={results.error} title="The search failed." />
      {results.isFetching && <Loading label="Searching…" />}
      {results.data !== undefined && !results.isFetching && (
        <div className="search-results">
          <h3 id="results-heading">
            {results.data.items.length === 0 ? 'No passage matches' : `${results.data.items.length} ${results.data.items.length === 1 ? 'passage' : 'passages'}`}
          </h3>
          <p className="muted text-small">{MODE_TEXT[results.data.retrieval_mode]}.</p>
          {results.data.warning !== undefined && <p className="note note-info">{results.data.warning}</p>}
          {results.data.items.length === 0 ? (
            <Empty>Try other words; documents still being processed are not searched yet.</Empty>
          ) : (
            <ol className="list passage-list">
              {results.data.items.map((passage) => (
                <PassageCard key={passage.chunk_id} passage={passage} />
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}

function PassageCard({ passage }: { passage: Passage }) {
  const where = [passage.heading, passage.page === null ? null : `page ${passage.page}`].filter(Boolean).join(' · ');
  return (
    <li className="card passage-card">
      <div className="passage-head">
        <strong className="passage-source">{passage.source}</strong>
        <span className="badge passage-score">
          Score {passage.score.toFixed(2)}
        </span>
      </div>
      {where !== '' && <p className="muted text-small">{where}</p>}
      <p className="passage-text">{passage.text}</p>
    </li>
  );
}

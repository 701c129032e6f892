// The corpora a source may fill: those the caller may write to (the server checks it again).
import { useQuery } from '@tanstack/react-query';
import { corpusChoicesQuery } from '../../api/queries';
import type { SelectOption } from '../../ui/SelectField';
import { mayOnCorpus } from '../corpora/corpus-api';

/** Why no source can be added: no corpus the caller may write to. */
export const NO_WRITABLE_CORPUS = 'Sources fill corpora you may add documents to, and you have none: create a corpus first, or ask its owner for write permission.';

export function useWritableCorpora() {
  const corpora = useQuery(corpusChoicesQuery());
  const options: SelectOption<number>[] = (corpora.data ?? []).filter((corpus) => mayOnCorpus(corpus.permission, 'write')).map((corpus) => ({ id: corpus.id, label: corpus.name }));
  const nameOf = (corpusId: number) => corpora.data?.find((corpus) => corpus.id === corpusId)?.name;
  /** NO_WRITABLE_CORPUS once the corpora are read and none may be written to; null otherwise. */
  const blocked = corpora.data !== undefined && options.length === 0 ? NO_WRITABLE_CORPUS : null;
  return { options, nameOf, blocked, isPending: corpora.isPending, error: corpora.error };
}

// The corpora a source may fill: those the caller may write to (the server checks it again).
import { useQuery } from '@tanstack/react-query';
import { corpusChoicesQuery } from '../../api/queries';
import type { SelectOption } from '../../ui/SelectField';
import { mayOnCorpus } from '../corpora/corpus-api';

export function useWritableCorpora() {
  const corpora = useQuery(corpusChoicesQuery());
  const options: SelectOption<number>[] = (corpora.data ?? []).filter((corpus) => mayOnCorpus(corpus.permission, 'write')).map((corpus) => ({ id: corpus.id, label: corpus.name }));
  const nameOf = (corpusId: number) => corpora.data?.find((corpus) => corpus.id === corpusId)?.name;
  return { options, nameOf, isPending: corpora.isPending, error: corpora.error };
}

// The corpus a source fills, chosen among those the caller may write to (the server checks it again).
import { SelectField } from '../../ui/SelectField';
import { useWritableCorpora } from './useWritableCorpora';

export function WritableCorpusField({ value, onChange, purpose }: { value: number | null; onChange: (corpusId: number) => void; purpose: string }) {
  const corpora = useWritableCorpora();
  return (
    <SelectField
      label="Corpus"
      options={corpora.options}
      value={value}
      onChange={onChange}
      placeholder={corpora.isPending ? 'Loading the corpora…' : 'Choose a corpus'}
      description={corpora.options.length === 0 && !corpora.isPending ? 'No corpus you may add documents to: create one first.' : purpose}
    />
  );
}

// A document's tags: removed one by one, added through a small form. The API replaces the whole
// list (PUT …/tags), so each change sends the list as it should become.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Popover, Tag, TagGroup, TagList, Button as AriaButton } from 'react-aria-components';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { ErrorNote } from '../../../ui/Feedback';
import { Button, TextField } from '../../../ui/Fields';
import { corpusKeys, type CorpusDocument } from '../corpus-api';

export function DocumentTags({ document, mayChange }: { document: CorpusDocument; mayChange: boolean }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (tags: string[]) =>
      unwrap(
        api.PUT('/api/v2/corpora/{corpus_id}/documents/{document_id}/tags', {
          params: { path: { corpus_id: document.corpus_id, document_id: document.id } },
          body: { tags },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: corpusKeys.documents(document.corpus_id) }),
  });
  const tags = document.tags;
  const changeable = mayChange && !document.is_deleted;

  return (
    <div className="document-tags">
      {tags.length > 0 && (
        <TagGroup
          aria-label={`Tags of ${document.source}`}
          onRemove={changeable ? (keys) => save.mutate(tags.filter((tag) => !keys.has(tag))) : undefined}
        >
          <TagList items={tags.map((tag) => ({ id: tag }))}>
            {(item) => (
              <Tag id={item.id} textValue={item.id}>
                {item.id}
                {changeable && (
                  <AriaButton slot="remove" className="tag-remove">
                    ×
                  </AriaButton>
                )}
              </Tag>
            )}
          </TagList>
        </TagGroup>
      )}
      {changeable && <AddTag source={document.source} onAdd={(tag) => save.mutate([...new Set([...tags, tag])])} isPending={save.isPending} />}
      <ErrorNote error={save.error} />
    </div>
  );
}

function AddTag({ source, onAdd, isPending }: { source: string; onAdd: (tag: string) => void; isPending: boolean }) {
  const [tag, setTag] = useState('');
  return (
    <DialogTrigger>
      <Button variant="quiet" className="button-compact" aria-label={`Add tag to ${source}`} isDisabled={isPending}>
        <span aria-hidden="true">+</span> Add tag
      </Button>
      <Popover placement="bottom start" className="react-aria-Popover tag-popover">
        <Dialog aria-label={`Add tag to ${source}`} className="dialog dialog-compact">
          {({ close }) => (
            <Form
              className="form"
              onSubmit={(event) => {
                event.preventDefault();
                const value = tag.trim();
                if (value === '') return;
                onAdd(value);
                setTag('');
                close();
              }}
            >
              <TextField label="Tag" value={tag} onChange={setTag} maxLength={100} autoFocus isRequired />
              <Button type="submit" variant="primary">
                Add tag
              </Button>
            </Form>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

// The client package's own code (clients/typescript): the typed readers of event streams decode
// events as the document describes them and skip names they do not know; toFormData writes a typed
// form as the multipart parts the server reads. Unit tests: canned streams, no server.
import { describe, expect, it } from 'vitest';
import { readAskEvents, readChatCompletionEvents, readCorpusEvents, toFormData, type AskStreamEvent } from '../clients/typescript/src/index.js';

const stream = (text: string) => new Response(text, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });

async function all<T>(events: AsyncGenerator<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const event of events) read.push(event);
  return read;
}

describe('typed event readers', () => {
  it('decode an ask’s events, their data parsed and their ids kept, and skip a name a newer server added', async () => {
    const events = await all(
      readAskEvents(
        stream(
          'id: 1\nevent: response.created\ndata: {"id":12,"thread_id":3}\n\n' +
            'id: 2\nevent: reasoning\ndata: {"text":"hidden"}\n\n' +
            ': keep-alive\n\n' +
            'id: 3\nevent: delta\ndata: {"text":"Thirty days."}\n\n',
        ),
      ),
    );
    expect(events).toEqual([
      { event: 'response.created', id: '1', data: { id: 12, thread_id: 3 } },
      { event: 'delta', id: '3', data: { text: 'Thirty days.' } },
    ]);
    const delta = events.find((event): event is Extract<AskStreamEvent, { event: 'delta' }> => event.event === 'delta');
    expect(delta?.data.text).toBe('Thirty days.');
  });

  it('keep OpenAI’s [DONE] as text, and read the corpus’s events after its retry line', async () => {
    const chunks = await all(readChatCompletionEvents(stream('data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}\n\ndata: [DONE]\n\n')));
    expect(chunks.map((event) => event.data)).toEqual([expect.objectContaining({ id: 'chatcmpl-1' }), '[DONE]']);
    expect(chunks.every((event) => event.event === 'message')).toBe(true);

    const progress = await all(readCorpusEvents(stream('retry: 2000\n\nid: 17\nevent: document\ndata: {"document_id":42,"step":"indexed","is_failed":false,"error":null,"created_on":"2026-11-20T10:15:30.123Z"}\n\n')));
    expect(progress).toEqual([{ event: 'document', id: '17', data: expect.objectContaining({ document_id: 42, step: 'indexed' }) }]);
  });

  it('refuse an answer that is not a stream, or one whose body was already read', async () => {
    const json = new Response('{"success":true}', { headers: { 'content-type': 'application/json' } });
    await expect(all(readAskEvents(json))).rejects.toThrow(/Not an event stream: HTTP 200, application\/json/);
    const read = stream('id: 1\nevent: delta\ndata: {"text":"x"}\n\n');
    await read.text();
    await expect(all(readAskEvents(read))).rejects.toThrow(/parseAs: "stream"/);
  });
});

describe('toFormData', () => {
  it('writes each file of an array as a part of its own, files with their names, other fields as text', async () => {
    const form = toFormData({
      files: [new File(['Refunds take five days.'], 'refunds.txt', { type: 'text/plain' }), new Blob(['%PDF-1.4'])],
      tags: 'policy,refunds',
      on_duplicate: undefined,
    });
    const files = form.getAll('files').flatMap((part) => (typeof part === 'string' ? [] : [part]));
    expect(files.map((file) => file.name)).toEqual(['refunds.txt', 'blob']);
    expect(await files[0]!.text()).toBe('Refunds take five days.');
    expect(form.get('tags')).toBe('policy,refunds');
    expect(form.has('on_duplicate')).toBe(false);
  });
});
